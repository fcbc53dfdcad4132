-- Remove the executions of a run (before the run itself, run_delete.sql).
DELETE FROM run_execs WHERE rid = :rid;
