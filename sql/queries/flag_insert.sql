-- Raise a flag.  flag_id: the largest plus one (the writers take turns).
INSERT INTO flag (flag_id, from_ms, to_ms, backend, is_session, session_id, state, handling, status,
                  computed_nanos, billed_nanos, drift_nanos, recon_id, opened_ms, updated_ms, reopened,
                  resolved_by_batch, reason, who)
VALUES ((SELECT COALESCE(MAX(flag_id), 0) + 1 FROM flag), :from_ms, :to_ms, :backend, :is_session,
        :session_id, 'open', NULL, :status, :computed_nanos, :billed_nanos, :drift_nanos, :recon_id,
        :now_ms, :now_ms, 0, NULL, NULL, NULL)
RETURNING flag_id;
