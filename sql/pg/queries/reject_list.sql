-- Rejected lines, of one batch (:batch_id) or of all (:batch_id NULL).
-- PostgreSQL (sql/queries/reject_list.sql is SQLite's): there is no rowid;
-- the records of one line (the elements of a JSON array on it) are put in
-- the order stored by their place in the table (ctid), which is the order
-- they were inserted in as long as the table only grows (the rejects of a
-- batch taken out leave room that later rows may fill).
SELECT batch_id, line_no, reason, content, full_length
  FROM reject
 WHERE CAST(:batch_id AS BIGINT) IS NULL OR batch_id = :batch_id
 ORDER BY batch_id, line_no, ctid;
