-- Store the executions of a run that lists any, as one row
-- (sql/schema/010_scale.sql; the text made by sb_execs_json).
INSERT INTO run_execs (rid, execs) VALUES (:rid, :execs);
