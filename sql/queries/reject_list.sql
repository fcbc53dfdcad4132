-- Rejected lines, of one batch (:batch_id) or of all (:batch_id NULL).
SELECT batch_id, line_no, reason, content, full_length
  FROM reject
 WHERE CAST(:batch_id AS BIGINT) IS NULL OR batch_id = :batch_id
 ORDER BY batch_id, line_no, rowid;
