-- Take out everything batch :batch_id stored (docs/rules.md, "Import
-- batches"), before the runs it replaced are put back: its runs out of the
-- day rollups, its runs with their executions and tags, its billing lines,
-- the lines it superseded live again, its pending lines and what a
-- superseding batch keeps for a resume, its rejected lines.  Statement after
-- statement, inside the caller's transaction.
INSERT INTO run_day (day, backend, model, runs, exec_ms, computed_nanos, input_tokens, output_tokens)
SELECT started_day, backend, COALESCE(model, ''), -COUNT(*), -SUM(total_duration_ms),
       -SUM(computed_nanos), -SUM(input_tokens), -SUM(output_tokens)
  FROM run WHERE batch_id = :batch_id
 GROUP BY started_day, backend, COALESCE(model, '')
    ON CONFLICT (day, backend, model) DO UPDATE
   SET runs = runs + excluded.runs,
       exec_ms = exec_ms + excluded.exec_ms,
       computed_nanos = computed_nanos + excluded.computed_nanos,
       input_tokens = input_tokens + excluded.input_tokens,
       output_tokens = output_tokens + excluded.output_tokens;
INSERT INTO run_day_tag (name, day, value, backend, model, runs, exec_ms, computed_nanos,
                         input_tokens, output_tokens)
SELECT t.name, r.started_day, t.value, r.backend, COALESCE(r.model, ''), -COUNT(*),
       -SUM(r.total_duration_ms), -SUM(r.computed_nanos), -SUM(r.input_tokens),
       -SUM(r.output_tokens)
  FROM run r JOIN run_tag t ON t.rid = r.rid
 WHERE r.batch_id = :batch_id
 GROUP BY t.name, r.started_day, t.value, r.backend, COALESCE(r.model, '')
    ON CONFLICT (name, day, value, backend, model) DO UPDATE
   SET runs = runs + excluded.runs,
       exec_ms = exec_ms + excluded.exec_ms,
       computed_nanos = computed_nanos + excluded.computed_nanos,
       input_tokens = input_tokens + excluded.input_tokens,
       output_tokens = output_tokens + excluded.output_tokens;
DELETE FROM execution WHERE rid IN (SELECT rid FROM run WHERE batch_id = :batch_id);
DELETE FROM run_tag WHERE rid IN (SELECT rid FROM run WHERE batch_id = :batch_id);
DELETE FROM run WHERE batch_id = :batch_id;
DELETE FROM billing_line WHERE batch_id = :batch_id;
UPDATE billing_line SET superseded_by = NULL WHERE superseded_by = :batch_id;
DELETE FROM billing_line_pending WHERE batch_id = :batch_id;
DELETE FROM billing_row_seen WHERE batch_id = :batch_id;
DELETE FROM billing_supersede WHERE batch_id = :batch_id;
DELETE FROM reject WHERE batch_id = :batch_id;
