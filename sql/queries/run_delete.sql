-- Remove a run (its executions and tags go with it).
DELETE FROM run WHERE rid = :rid;
