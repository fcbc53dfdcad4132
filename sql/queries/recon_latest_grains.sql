-- The grain each backend of the latest result of each period ending
-- after :since_ms was judged at (results stored before grains were kept
-- have none): what a night compares with the grains the backends have now.
WITH latest AS (
    SELECT from_ms, to_ms, MAX(recon_id) AS recon_id
      FROM reconciliation
     WHERE to_ms > :since_ms
     GROUP BY from_ms, to_ms
)
SELECT b.recon_id,                 -- the result
       b.backend,                  -- one of its backends
       b.grain                     -- 'day' or 'month', as judged
  FROM latest l JOIN reconciliation_backend b ON b.recon_id = l.recon_id
 WHERE b.grain IS NOT NULL
 ORDER BY b.recon_id, b.backend;
