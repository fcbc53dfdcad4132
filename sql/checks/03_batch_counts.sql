-- Each ended batch keeps as many rejected lines as it counts.
-- The query lists what breaks it.
SELECT 'batch ' || b.batch_id || ': counts ' || b.rejected || ' rejected lines but keeps '
       || (SELECT COUNT(*) FROM reject j WHERE j.batch_id = b.batch_id)
  FROM batch b
 WHERE b.status IN ('complete', 'failed')
   AND b.rejected <> (SELECT COUNT(*) FROM reject j WHERE j.batch_id = b.batch_id);
