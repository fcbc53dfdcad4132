-- No ended batch keeps pending billing lines or counts of identical rows; pending lines belong to a superseding batch.
-- A superseding batch's lines are pending while it can still complete (running or interrupted):
-- the transaction that ends it moves them, or gives them up.  The query lists what breaks it.
SELECT 'pending billing line ' || p.pid || ' (' || p.format || ' ' || p.line_key || '): its batch '
       || p.batch_id || ' is '
       || CASE WHEN b.batch_id IS NULL THEN 'missing'
               WHEN b.status IN ('complete', 'failed') THEN b.status || ' (ended)'
               ELSE 'not a superseding batch' END
  FROM billing_line_pending p LEFT JOIN batch b ON b.batch_id = p.batch_id
 WHERE b.batch_id IS NULL OR b.status IN ('complete', 'failed')
    OR NOT EXISTS (SELECT 1 FROM billing_supersede s WHERE s.batch_id = p.batch_id)
UNION ALL
SELECT 'batch ' || r.batch_id || ' is ' || COALESCE(b.status || ' (ended)', 'missing')
       || ' but keeps the count of identical rows ' || r.row_hash
  FROM billing_row_seen r LEFT JOIN batch b ON b.batch_id = r.batch_id
 WHERE b.batch_id IS NULL OR b.status IN ('complete', 'failed');
