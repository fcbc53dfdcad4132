-- The end of a batch, with the SHA-256 of the bytes it read when given.
UPDATE batch
   SET status = :status, ended_ms = :ended_ms, sha256 = COALESCE(:sha256, sha256)
 WHERE batch_id = :batch_id;
