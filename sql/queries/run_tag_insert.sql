-- Store one tag of a run.
INSERT INTO run_tag (rid, name, value) VALUES (:rid, :name, :value);
