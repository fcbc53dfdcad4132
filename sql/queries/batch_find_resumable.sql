-- An interrupted batch of the same input, to resume where it stopped.
SELECT batch_id, resume_offset, resume_line, accepted, duplicates, rejected, replaced, skipped
  FROM batch
 WHERE format = :format AND sha256 = :sha256 AND status = 'interrupted'
 ORDER BY batch_id DESC LIMIT 1;
