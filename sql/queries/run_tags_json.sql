-- The tags object of run :rid as JSON text (NULL when it had none).
SELECT tags FROM run WHERE rid = :rid;
