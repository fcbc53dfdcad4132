-- The flags 'sbledger flags' lists: the states wanted (:want_open,
-- :want_handled, :want_resolved; :disputes_only keeps handled disputes),
-- of the periods that meet [:from_ms, :to_ms), with the money at stake
-- (|drift| where known, else computed: nothing billed).  By period,
-- backend, session.
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
       CASE WHEN drift_nanos IS NULL THEN computed_nanos
            WHEN drift_nanos < 0 THEN -drift_nanos ELSE drift_nanos END AS at_stake_usd,
       reopened,
       resolved_by_batch,
       who,
       reason
  FROM flag
 WHERE ((state = 'open' AND :want_open = 1)
        OR (state = 'handled' AND :want_handled = 1 AND (:disputes_only = 0 OR handling = 'dispute'))
        OR (state = 'resolved' AND :want_resolved = 1))
   AND from_ms < :to_ms AND to_ms > :from_ms
 ORDER BY from_ms, to_ms, backend, is_session, session_id, flag_id;
