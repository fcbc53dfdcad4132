-- Each run points at a batch that kept it.
-- The query lists what breaks it.
SELECT 'run ' || r.run_id || ': its batch ' || r.batch_id || ' is missing or failed'
  FROM run r LEFT JOIN batch b ON b.batch_id = r.batch_id
 WHERE b.batch_id IS NULL OR b.status = 'failed';
