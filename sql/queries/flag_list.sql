-- Flags: the one :flag_id (0: any), in the states wanted (:want_open,
-- :want_handled, :want_resolved: 1 or 0; :disputes_only 1 keeps only
-- handled disputes), of the periods that meet [:from_ms, :to_ms) (with
-- :exact 1: of that period exactly), by period, backend, session.  The
-- columns up to reason are what 'sbledger flags' lists, with the money at
-- stake (|drift| where known, else computed: nothing billed; nothing once
-- resolved, which keeps the figures that were flagged); the rest
-- are the flag's own, for reconcile/flags.c.
SELECT flag_id AS id,
       from_ms AS period_from,
       to_ms AS period_to,
       backend,
       CASE WHEN is_session = 1 THEN COALESCE(session_id, '(none)') ELSE NULL END AS session,
       state,
       handling,
       status,
       computed_nanos AS computed_usd,
       billed_nanos AS billed_usd,
       drift_nanos AS drift_usd,
       CASE WHEN state = 'resolved' THEN NULL
            WHEN drift_nanos IS NULL THEN computed_nanos
            WHEN drift_nanos < 0 THEN -drift_nanos ELSE drift_nanos END AS at_stake_usd,
       reopened,
       resolved_by_batch,
       who,
       reason,
       is_session,                 -- 1 a session of the backend
       session_id,                 -- the session as stored (NULL: runs naming none)
       recon_id,                   -- the latest result that judged it
       opened_ms,                  -- first raised
       updated_ms                  -- last changed
  FROM flag
 WHERE (:flag_id = 0 OR flag_id = :flag_id)
   AND ((state = 'open' AND :want_open = 1)
        OR (state = 'handled' AND :want_handled = 1 AND (:disputes_only = 0 OR handling = 'dispute'))
        OR (state = 'resolved' AND :want_resolved = 1))
   AND ((:exact = 1 AND from_ms = :from_ms AND to_ms = :to_ms)
        OR (:exact = 0 AND from_ms < :to_ms AND to_ms > :from_ms))
 ORDER BY from_ms, to_ms, backend, is_session, session_id, flag_id;
