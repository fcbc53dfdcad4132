-- Counts, resume point and the prefix read of a running batch, saved with each commit.
UPDATE batch
   SET resume_offset = :resume_offset, resume_line = :resume_line,
       accepted = :accepted, duplicates = :duplicates, rejected = :rejected,
       replaced = :replaced, skipped = :skipped,
       prefix_length = :prefix_length, prefix_sha256 = :prefix_sha256
 WHERE batch_id = :batch_id;
