-- Every batch, oldest first.
SELECT batch_id, kind, format, source, sha256, status, started_ms, ended_ms,
       accepted, duplicates, rejected, replaced, skipped
  FROM batch ORDER BY batch_id;
