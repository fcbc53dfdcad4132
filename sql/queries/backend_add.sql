-- A backend first seen on a rate card: its capabilities are unknown.
INSERT INTO backend (backend) VALUES (:backend) ON CONFLICT (backend) DO NOTHING;
