-- The versions of runs batch :batch_id replaced (import runs --replace),
-- oldest first: for each run_id the first is the version from before the
-- batch, put back when the batch is taken out (unless the batch itself
-- had brought it: a run_id twice in one file).
SELECT hid, run_id, batch_id
  FROM run_history
 WHERE replaced_by_batch = :batch_id
 ORDER BY run_id, hid;
