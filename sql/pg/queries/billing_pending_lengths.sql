-- The backend of a superseding batch whose pending lines are of more than one length (a whole
-- UTC calendar month counting as one length, -1, whatever its days), with the shortest and the
-- longest; no row when each backend's lines are of one length.
-- PostgreSQL (sql/queries/billing_pending_lengths.sql is SQLite's, with strftime): a line is a
-- whole month when it starts at midnight UTC on the first of a month and ends at midnight UTC
-- on the first of the next, the start read as a UTC timestamp (to_timestamp ... AT TIME ZONE
-- 'UTC') plus one calendar month.  A line starting on 9999-12-01 is not one: SQLite's dates end
-- with 9999, so its strftime gives NULL for the month after (and the CASE tests the range first,
-- so that to_timestamp never sees an instant it refuses).
SELECT backend, MIN(len), MAX(len)
  FROM (SELECT backend,
               CASE WHEN start_ms % 86400000 <> 0
                         OR start_ms < -62167219200000 OR start_ms >= 253399622400000
                    THEN end_ms - start_ms      -- not midnight, or outside [0000-01-01, 9999-12-01)
                    WHEN EXTRACT(DAY FROM to_timestamp(start_ms / 1000) AT TIME ZONE 'UTC') = 1
                         AND end_ms = 1000 * EXTRACT(EPOCH FROM (to_timestamp(start_ms / 1000) AT TIME ZONE 'UTC')
                                                                + INTERVAL '1 month')
                    THEN -1 ELSE end_ms - start_ms END AS len
          FROM billing_line_pending
         WHERE batch_id = :batch_id) p
 GROUP BY backend
HAVING COUNT(DISTINCT len) > 1
 ORDER BY backend
 LIMIT 1;
