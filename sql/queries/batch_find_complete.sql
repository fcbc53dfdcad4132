-- The newest complete batch of a format whose input had this SHA-256.
SELECT batch_id FROM batch
 WHERE format = :format AND sha256 = :sha256 AND status = 'complete'
 ORDER BY batch_id DESC LIMIT 1;
