-- The backends with live billing lines whose charge starts in [:from_ms,
-- :to_ms), and one charge start of each UTC day they hold (the earliest).
SELECT MIN(start_ms) AS start_ms, backend
  FROM billing_line
 WHERE superseded_by IS NULL AND start_ms >= :from_ms AND start_ms < :to_ms
 GROUP BY backend, start_ms / 86400000
 ORDER BY 1, 2;
