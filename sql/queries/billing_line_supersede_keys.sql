-- A superseding batch replaces the live lines of other batches holding one of its pending keys.
UPDATE billing_line
   SET superseded_by = :batch_id
 WHERE format = :format AND superseded_by IS NULL AND batch_id <> :batch_id
   AND line_key IN (SELECT p.line_key FROM billing_line_pending p
                     WHERE p.batch_id = :batch_id AND p.format = :format);
