-- The latest stored result of each period ending after :since_ms (what
-- the nightly job may judge again; docs/reconcile.md, "Judged again"),
-- oldest first, with what makes it need judging again:
--   stale: a change logged after it (ledger/changes.h) meets its period
--   or one of its backends' windows (a backend it did not include, its
--   period, except a grain: it moves no figure of a backend not judged);
--   a change of every backend (an exchange rate, a price) meets the
--   period or any window;
--   pending: a backend or session was pending;
--   lagged: a backend or session was unbilled, not flagged, and its window
--   has now ended more than :lag_ms before :now_ms.
-- Results stored before changes were logged (change_id NULL) are stale
-- only by changes logged since.
WITH latest AS (
    SELECT from_ms, to_ms, MAX(recon_id) AS recon_id
      FROM reconciliation
     WHERE to_ms > :since_ms
     GROUP BY from_ms, to_ms
)
SELECT r.recon_id,                 -- the result
       r.from_ms, r.to_ms,         -- its period
       r.abs_nanos, r.rel_ppb,     -- the default tolerances it was judged with
       COALESCE(r.change_id, 0) AS change_id, -- the newest change it saw
       (SELECT MAX(c.change_id) FROM ledger_change c
         WHERE c.change_id > COALESCE(r.change_id, 0)
           AND ((c.from_ms < r.to_ms AND c.to_ms > r.from_ms AND c.what <> 'grain'
                 AND (c.backend IS NULL
                      OR NOT EXISTS (SELECT 1 FROM reconciliation_backend b
                                      WHERE b.recon_id = r.recon_id AND b.backend = c.backend)))
                OR EXISTS (SELECT 1 FROM reconciliation_backend b
                            WHERE b.recon_id = r.recon_id
                              AND (b.backend = c.backend OR c.backend IS NULL)
                              AND c.from_ms < b.window_to_ms AND c.to_ms > b.window_from_ms)))
           AS stale_change,        -- the newest change that makes it stale, NULL when none
       CASE WHEN EXISTS (SELECT 1 FROM reconciliation_backend b
                          WHERE b.recon_id = r.recon_id AND b.flagged IS NOT NULL AND b.status = 'pending')
              OR EXISTS (SELECT 1 FROM reconciliation_session s
                          WHERE s.recon_id = r.recon_id AND s.flagged IS NOT NULL AND s.status = 'pending')
            THEN 1 ELSE 0 END AS pending,
       CASE WHEN EXISTS (SELECT 1 FROM reconciliation_backend b
                          WHERE b.recon_id = r.recon_id AND b.status = 'unbilled' AND b.flagged = 0
                            AND :now_ms - b.window_to_ms > :lag_ms)
              OR EXISTS (SELECT 1 FROM reconciliation_session s
                          WHERE s.recon_id = r.recon_id AND s.status = 'unbilled' AND s.flagged = 0
                            AND :now_ms - r.to_ms > :lag_ms)
            THEN 1 ELSE 0 END AS lagged
  FROM latest l JOIN reconciliation r ON r.recon_id = l.recon_id
 ORDER BY r.from_ms, r.to_ms;
