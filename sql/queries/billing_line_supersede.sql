-- A reissued export replaces the live lines of earlier batches of its format and backend
-- whose charge period lies inside its span: they stay for audit, superseded by the new batch.
UPDATE billing_line
   SET superseded_by = :batch_id
 WHERE format = :format AND backend = :backend AND superseded_by IS NULL
   AND batch_id < :batch_id AND start_ms >= :from_ms AND end_ms <= :to_ms;
