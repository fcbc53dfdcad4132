-- The complete batches of a format whose input had this SHA-256, newest
-- first, with the options each ran with (the caller keeps the one that
-- asked what it asks: another request may change the ledger).
SELECT batch_id,   -- the batch
       options     -- the options it ran with, space separated
  FROM batch
 WHERE format = :format AND sha256 = :sha256 AND status = 'complete'
 ORDER BY batch_id DESC;
