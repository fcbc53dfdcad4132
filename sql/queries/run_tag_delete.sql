-- Remove the tags of a run (before the run itself, run_delete.sql).
DELETE FROM run_tag WHERE rid = :rid;
