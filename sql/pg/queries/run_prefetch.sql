-- PostgreSQL's run_prefetch.sql: the ids of the JSON array as one text
-- array, compared in the run_id column's collation ("C"), so that the
-- index is walked once for them all, in its order.  The stored versions of
-- the runs whose run_ids :ids lists (sql/queries/run_prefetch.sql).
SELECT r.run_id, r.rid, r.fingerprint, r.batch_id, r.line_no
  FROM run AS r
 WHERE r.run_id = ANY (ARRAY(SELECT json_array_elements_text(CAST(:ids AS json))) COLLATE "C");
