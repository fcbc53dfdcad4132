-- Remove a run, once its executions and tags are gone (run_execs_delete.sql,
-- run_tag_delete.sql: the import's connection may run without foreign
-- keys, so without their ON DELETE CASCADE).
DELETE FROM run WHERE rid = :rid;
