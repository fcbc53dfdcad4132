-- The stored periods the nightly job judges again (docs/reconcile.md):
-- each period that ends no later than :to_ms and is not [:from_ms,
-- :to_ms) itself, whose latest stored reconciliation has a backend or a
-- session that was pending, or that was unbilled and not flagged while its
-- window has now ended more than :lag_ms before :now_ms (a bill that never
-- came is flagged then, once).  Results stored before their flags were
-- kept (flagged NULL) are left as they are.  Oldest first.
WITH latest AS (
    SELECT from_ms, to_ms, MAX(recon_id) AS recon_id
      FROM reconciliation
     WHERE to_ms <= :to_ms AND NOT (from_ms = :from_ms AND to_ms = :to_ms)
     GROUP BY from_ms, to_ms
), open AS (
    SELECT l.from_ms, l.to_ms,
           CASE WHEN EXISTS (SELECT 1 FROM reconciliation_backend b
                              WHERE b.recon_id = l.recon_id AND b.flagged IS NOT NULL
                                AND b.status = 'pending')
                  OR EXISTS (SELECT 1 FROM reconciliation_session s
                              WHERE s.recon_id = l.recon_id AND s.flagged IS NOT NULL
                                AND s.status = 'pending')
                THEN 1 ELSE 0 END AS pending,
           CASE WHEN EXISTS (SELECT 1 FROM reconciliation_backend b
                              WHERE b.recon_id = l.recon_id AND b.status = 'unbilled' AND b.flagged = 0
                                AND :now_ms - b.window_to_ms > :lag_ms)
                  OR EXISTS (SELECT 1 FROM reconciliation_session s
                              WHERE s.recon_id = l.recon_id AND s.status = 'unbilled' AND s.flagged = 0
                                AND :now_ms - l.to_ms > :lag_ms)
                THEN 1 ELSE 0 END AS lagged
      FROM latest l
)
SELECT from_ms,                    -- the period to judge again
       to_ms,
       pending,                    -- 1: something in it was pending
       lagged                      -- 1: a missing bill is now past the billing lag
  FROM open
 WHERE pending = 1 OR lagged = 1
 ORDER BY from_ms, to_ms;
