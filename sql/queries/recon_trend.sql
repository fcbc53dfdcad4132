-- Drift per backend and day, from the stored reconciliations of one UTC
-- day (24 h) each whose day lies inside [:from_ms, :to_ms): for each day
-- and backend the latest stored result (the rows 'report drift --by day'
-- lists), by backend, then day.
SELECT b.backend,                                              -- backend id
       c.from_ms, c.to_ms,                                     -- the day reconciled, [from, to)
       b.status,                                               -- its status that day
       b.flagged,                                              -- 1 flagged, 0 not, NULL stored before flags were kept
       b.computed_nanos,                                       -- computed that day
       b.billed_nanos,                                         -- billed that day (NULL: nothing billed)
       b.drift_nanos,                                          -- billed - computed (NULL when billed is)
       c.recon_id                                              -- the reconciliation it comes from
  FROM reconciliation_backend b
  JOIN reconciliation c ON c.recon_id = b.recon_id
 WHERE c.from_ms >= :from_ms AND c.to_ms <= :to_ms
   AND c.to_ms - c.from_ms = 86400000
   AND c.recon_id = (SELECT MAX(n.recon_id) FROM reconciliation n
                      JOIN reconciliation_backend nb ON nb.recon_id = n.recon_id
                     WHERE n.from_ms = c.from_ms AND n.to_ms = c.to_ms
                       AND nb.backend = b.backend)
 ORDER BY b.backend, c.from_ms;
