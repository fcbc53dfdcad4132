-- The stored versions of the runs whose run_ids :ids lists (a JSON array
-- of strings; sb_run_writer_expect): each one's run_id, row id,
-- fingerprint and where it came from, as run_lookup.sql.  One probe of
-- the run_id index per id.
SELECT r.run_id, r.rid, r.fingerprint, r.batch_id, r.line_no
  FROM json_each(:ids) AS j CROSS JOIN run AS r
 WHERE r.run_id = j.value;
