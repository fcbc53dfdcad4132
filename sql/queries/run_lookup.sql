-- The stored version of a run: its row id, fingerprint and where it came from.
SELECT rid, fingerprint, batch_id, line_no FROM run WHERE run_id = :run_id;
