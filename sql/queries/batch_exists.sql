-- Whether batch :batch_id exists (one row), and the highest batch id of the
-- ledger (NULL when it has none), for the message when it does not.
SELECT EXISTS (SELECT 1 FROM batch WHERE batch_id = :batch_id),  -- 1 when it exists
       (SELECT MAX(batch_id) FROM batch);                           -- the newest batch
