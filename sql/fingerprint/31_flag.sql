-- flag: the flags of stored results and how they stand
SELECT f.flag_id, f.from_ms, f.to_ms, f.backend, f.is_session, f.session_id, -- which
       f.state, f.handling, f.status,                                          -- how it stands
       f.computed_nanos, f.billed_nanos, f.drift_nanos, f.recon_id,             -- its figures
       f.opened_ms, f.updated_ms, f.reopened, f.resolved_by_batch, f.reason, f.who
  FROM flag f;
