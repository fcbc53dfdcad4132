-- A superseding batch replaces the live lines of other batches of its format and backend that lie
-- inside the period it covers ([:from_ms, :to_ms): starting in it and ending by its end): they
-- stay for audit, superseded by the new batch.
UPDATE billing_line
   SET superseded_by = :batch_id
 WHERE format = :format AND backend = :backend AND superseded_by IS NULL
   AND batch_id <> :batch_id AND start_ms >= :from_ms AND start_ms < :to_ms AND end_ms <= :to_ms;
