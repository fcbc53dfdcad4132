-- Flags: the one :flag_id (0: any), in the states wanted (:want_open,
-- :want_handled, :want_resolved: 1 or 0; :disputes_only 1 keeps only
-- handled disputes), of the periods that meet [:from_ms, :to_ms) (with
-- :exact 1: of that period exactly).  By period, backend, session.
SELECT flag_id, from_ms, to_ms, backend, is_session, session_id, state, handling, status,
       computed_nanos, billed_nanos, drift_nanos, recon_id, opened_ms, updated_ms, reopened,
       resolved_by_batch, reason, who
  FROM flag
 WHERE (:flag_id = 0 OR flag_id = :flag_id)
   AND ((state = 'open' AND :want_open = 1)
        OR (state = 'handled' AND :want_handled = 1 AND (:disputes_only = 0 OR handling = 'dispute'))
        OR (state = 'resolved' AND :want_resolved = 1))
   AND ((:exact = 1 AND from_ms = :from_ms AND to_ms = :to_ms)
        OR (:exact = 0 AND from_ms < :to_ms AND to_ms > :from_ms))
 ORDER BY from_ms, to_ms, backend, is_session, session_id, flag_id;
