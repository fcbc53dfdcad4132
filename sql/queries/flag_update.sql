-- A flag as it now stands: its state, handling, the figures last judged
-- and who moved it.
UPDATE flag
   SET state = :state, handling = :handling, status = :status, computed_nanos = :computed_nanos,
       billed_nanos = :billed_nanos, drift_nanos = :drift_nanos, recon_id = :recon_id,
       updated_ms = :now_ms, reopened = :reopened, resolved_by_batch = :resolved_by_batch,
       reason = :reason, who = :who
 WHERE flag_id = :flag_id;
