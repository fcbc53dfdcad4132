-- Whether batch :batch_id exists (one row), and the highest batch id of the
-- ledger (NULL when it has none), for the message when it does not.
SELECT CASE WHEN EXISTS (SELECT 1 FROM batch WHERE batch_id = :batch_id)
            THEN 1 ELSE 0 END,                                     -- 1 when it exists
       (SELECT MAX(batch_id) FROM batch);                           -- the newest batch
