-- Every billing line comes from a batch that exists and did not fail, and a superseded one names such a batch.
-- The query lists what breaks it.
SELECT 'billing line ' || l.lid || ' (' || l.format || ' ' || l.line_key || '): its batch '
       || l.batch_id || ' is missing or failed'
  FROM billing_line l LEFT JOIN batch b ON b.batch_id = l.batch_id
 WHERE b.batch_id IS NULL OR b.status = 'failed'
UNION ALL
SELECT 'billing line ' || l.lid || ' (' || l.format || ' ' || l.line_key || '): superseded by batch '
       || l.superseded_by || ', which is missing or failed'
  FROM billing_line l LEFT JOIN batch b ON b.batch_id = l.superseded_by
 WHERE l.superseded_by IS NOT NULL AND (b.batch_id IS NULL OR b.status = 'failed');
