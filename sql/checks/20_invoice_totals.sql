-- Each finalized invoice's total is the sum of its lines' amounts.
-- The query lists what breaks it.
-- An invoice without lines totals 0.  Amounts as decimal text with 9
-- decimals, so that an edit of a nanodollar shows.
SELECT 'invoice ' || i.number || ': total ' ||
       CASE WHEN i.total_nanos < 0 THEN '-' ELSE '' END || CAST(ABS(i.total_nanos) / 1000000000 AS TEXT) || '.' ||
       SUBSTR(CAST(1000000000 + ABS(i.total_nanos) % 1000000000 AS TEXT), 2, 9) || ' ' || i.currency ||
       ' but its ' || COALESCE(l.lines, 0) || ' lines add up to ' ||
       CASE WHEN COALESCE(l.nanos, 0) < 0 THEN '-' ELSE '' END || CAST(ABS(COALESCE(l.nanos, 0)) / 1000000000 AS TEXT) || '.' ||
       SUBSTR(CAST(1000000000 + ABS(COALESCE(l.nanos, 0)) % 1000000000 AS TEXT), 2, 9)
  FROM invoice i
  LEFT JOIN (SELECT invoice_id, COUNT(*) AS lines, CAST(SUM(amount_nanos) AS BIGINT) AS nanos
               FROM invoice_line GROUP BY invoice_id) l ON l.invoice_id = i.invoice_id
 WHERE i.total_nanos <> COALESCE(l.nanos, 0)
 ORDER BY i.number;
