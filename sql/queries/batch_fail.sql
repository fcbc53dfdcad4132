-- A batch taken out again: failed, with why, nothing of it counted.
UPDATE batch
   SET status = 'failed', reason = :reason, ended_ms = :ended_ms,
       accepted = 0, duplicates = 0, rejected = 0, replaced = 0, skipped = 0,
       resume_offset = 0, resume_line = 1, prefix_length = NULL, prefix_sha256 = NULL
 WHERE batch_id = :batch_id;
