-- The batches begun after batch :after_id (what one nightly run
-- imported and fetched, the ledger's write lock held throughout), oldest
-- first.
SELECT batch_id,                                               -- the batch number
       kind,                                                   -- 'runs' or 'billing'
       format,                                                 -- 'runs', or the billing format
       source,                                                 -- the file (resolved path) or URL
       status,                                                 -- running, interrupted, complete, failed
       accepted,                                               -- records stored
       duplicates,                                             -- records already in the ledger
       rejected                                                -- records rejected (sbledger rejects --batch N)
  FROM batch
 WHERE batch_id > :after_id
 ORDER BY batch_id;
