-- The newest interrupted batch of the same input: one that read the same
-- file (:path, resolved) or an input with the same SHA-256.  The caller
-- resumes it where it stopped if the file still begins with the prefix it
-- had read (prefix_length, prefix_sha256; NULL for a batch of an older
-- sbledger, which is resumed on its SHA-256 alone).
SELECT batch_id, resume_offset, resume_line, accepted, duplicates, rejected, replaced, skipped,
       sha256, prefix_length, prefix_sha256
  FROM batch
 WHERE format = :format AND status = 'interrupted' AND (sha256 = :sha256 OR path = :path)
 ORDER BY batch_id DESC LIMIT 1;
