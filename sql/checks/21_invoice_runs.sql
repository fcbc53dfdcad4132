-- Each finalized invoice counts the runs it claims, and no run is claimed twice.
-- The query lists what breaks it.
-- A run is claimed twice when two invoices of the same tag (the same
-- grouping of customers) claim it, or two claims of it are not marked
-- duplicate (the rule of sql/schema/007_invoice_once.sql, whose unique
-- index an edit may have dropped; claims stored before that version under
-- another tag are marked duplicate and stay).
SELECT what FROM (
SELECT 'invoice ' || i.number || ': counts ' || i.runs || ' runs but claims ' || COALESCE(c.claims, 0) AS what,
       i.invoice_id AS k1, 0 AS k2, '' AS k3
  FROM invoice i
  LEFT JOIN (SELECT invoice_id, COUNT(*) AS claims FROM invoice_run GROUP BY invoice_id) c
    ON c.invoice_id = i.invoice_id
 WHERE i.runs <> COALESCE(c.claims, 0)
UNION ALL
SELECT 'run ' || a.run_id || ': claimed by invoice ' || ia.number || ' and by invoice ' || ib.number,
       a.invoice_id, b.invoice_id, a.run_id
  FROM invoice_run a
  JOIN invoice_run b ON b.run_id = a.run_id AND b.invoice_id > a.invoice_id
  JOIN invoice ia ON ia.invoice_id = a.invoice_id
  JOIN invoice ib ON ib.invoice_id = b.invoice_id
 WHERE ia.tag = ib.tag OR (a.duplicate = 0 AND b.duplicate = 0)
) problems
 ORDER BY k1, k2, k3;
