-- Counts and resume point of a running batch, saved with each commit.
UPDATE batch
   SET resume_offset = :resume_offset, resume_line = :resume_line,
       accepted = :accepted, duplicates = :duplicates, rejected = :rejected,
       replaced = :replaced, skipped = :skipped
 WHERE batch_id = :batch_id;
