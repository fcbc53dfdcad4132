-- Each backend of a superseding batch's pending lines, with their span: earliest charge start,
-- latest charge end.
SELECT backend, MIN(start_ms), MAX(end_ms)
  FROM billing_line_pending
 WHERE batch_id = :batch_id
 GROUP BY backend
 ORDER BY backend;
