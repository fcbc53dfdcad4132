-- Record :name as a tracked tag name (after rollup_tag_track.sql).
INSERT INTO run_tag_name (name) VALUES (:name);
