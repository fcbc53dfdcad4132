-- The backend of a superseding batch whose pending lines are of more than one length (a whole
-- UTC calendar month counting as one length, -1, whatever its days), with the shortest and the
-- longest; no row when each backend's lines are of one length.
SELECT backend, MIN(len), MAX(len)
  FROM (SELECT backend,
               CASE WHEN start_ms % 86400000 = 0
                         AND strftime('%d', start_ms / 1000, 'unixepoch') = '01'
                         AND end_ms = 1000 * CAST(strftime('%s', start_ms / 1000, 'unixepoch', '+1 month') AS INTEGER)
                    THEN -1 ELSE end_ms - start_ms END AS len
          FROM billing_line_pending
         WHERE batch_id = :batch_id) p
 GROUP BY backend
HAVING COUNT(DISTINCT len) > 1
 ORDER BY backend
 LIMIT 1;
