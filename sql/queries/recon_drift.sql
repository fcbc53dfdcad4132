-- Drift per backend over time, from stored reconciliations whose period
-- lies inside [:from_ms, :to_ms): for each period and backend the latest
-- stored result; with :daily 1, only the results of one-day periods.
SELECT c.from_ms, c.to_ms, b.backend, b.status, b.computed_nanos, b.billed_nanos,
       b.drift_nanos, c.recon_id
  FROM reconciliation_backend b
  JOIN reconciliation c ON c.recon_id = b.recon_id
 WHERE c.from_ms >= :from_ms AND c.to_ms <= :to_ms
   AND (:daily = 0 OR c.to_ms - c.from_ms = 86400000)
   AND c.recon_id = (SELECT MAX(n.recon_id) FROM reconciliation n
                      JOIN reconciliation_backend nb ON nb.recon_id = n.recon_id
                     WHERE n.from_ms = c.from_ms AND n.to_ms = c.to_ms
                       AND nb.backend = b.backend)
 ORDER BY c.from_ms, c.to_ms, b.backend;
