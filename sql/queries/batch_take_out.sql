-- Take out everything batch :batch_id stored (docs/rules.md, "Import
-- batches"), before the runs it replaced are put back: its runs out of the
-- day rollups (each group whose maximum memory a run of it may have been
-- marked -1: batch_take_out_end.sql finds it again), its runs with their executions and tags, its billing lines,
-- the lines it superseded live again, its pending lines and what a
-- superseding batch keeps for a resume, its rejected lines.  Statement after
-- statement, inside the caller's transaction.
INSERT INTO run_day (day, backend, model, runs, exec_ms, computed_nanos, input_tokens, output_tokens, exec_count, cpu_ms, bytes_read, bytes_written, billed_nanos, billed_runs, card_nanos, card_runs, memory_peak_mb)
SELECT r.started_day, r.backend, COALESCE(r.model, ''),
       -COUNT(*), -SUM(r.total_duration_ms), -SUM(r.computed_nanos), -SUM(r.input_tokens),
       -SUM(r.output_tokens), -SUM(r.exec_count), -SUM(r.cpu_ms), -SUM(r.bytes_read),
       -SUM(r.bytes_written), -COALESCE(SUM(r.billed_nanos), 0), -COUNT(r.billed_nanos),
       -COALESCE(SUM(r.card_nanos), 0), -COUNT(r.card_nanos), -1 - MAX(r.memory_peak_mb)
  FROM run r WHERE r.batch_id = :batch_id
 GROUP BY r.started_day, r.backend, COALESCE(r.model, '')
    ON CONFLICT (day, backend, model) DO UPDATE
   SET runs = run_day.runs + excluded.runs,
       exec_ms = run_day.exec_ms + excluded.exec_ms,
       computed_nanos = run_day.computed_nanos + excluded.computed_nanos,
       input_tokens = run_day.input_tokens + excluded.input_tokens,
       output_tokens = run_day.output_tokens + excluded.output_tokens,
       exec_count = run_day.exec_count + excluded.exec_count,
       cpu_ms = run_day.cpu_ms + excluded.cpu_ms,
       bytes_read = run_day.bytes_read + excluded.bytes_read,
       bytes_written = run_day.bytes_written + excluded.bytes_written,
       billed_nanos = run_day.billed_nanos + excluded.billed_nanos,
       billed_runs = run_day.billed_runs + excluded.billed_runs,
       card_nanos = run_day.card_nanos + excluded.card_nanos,
       card_runs = run_day.card_runs + excluded.card_runs,
       memory_peak_mb = CASE WHEN run_day.memory_peak_mb < 0 OR -1 - excluded.memory_peak_mb >= run_day.memory_peak_mb THEN -1
                             ELSE run_day.memory_peak_mb END;
INSERT INTO run_day_tag (name, day, value, backend, model, runs, exec_ms, computed_nanos, input_tokens, output_tokens, exec_count, cpu_ms, bytes_read, bytes_written, billed_nanos, billed_runs, card_nanos, card_runs, memory_peak_mb)
SELECT t.name, r.started_day, t.value, r.backend, COALESCE(r.model, ''),
       -COUNT(*), -SUM(r.total_duration_ms), -SUM(r.computed_nanos), -SUM(r.input_tokens),
       -SUM(r.output_tokens), -SUM(r.exec_count), -SUM(r.cpu_ms), -SUM(r.bytes_read),
       -SUM(r.bytes_written), -COALESCE(SUM(r.billed_nanos), 0), -COUNT(r.billed_nanos),
       -COALESCE(SUM(r.card_nanos), 0), -COUNT(r.card_nanos), -1 - MAX(r.memory_peak_mb)
  FROM run r JOIN run_tag t ON t.rid = r.rid
 WHERE r.batch_id = :batch_id
 GROUP BY t.name, r.started_day, t.value, r.backend, COALESCE(r.model, '')
    ON CONFLICT (name, day, value, backend, model) DO UPDATE
   SET runs = run_day_tag.runs + excluded.runs,
       exec_ms = run_day_tag.exec_ms + excluded.exec_ms,
       computed_nanos = run_day_tag.computed_nanos + excluded.computed_nanos,
       input_tokens = run_day_tag.input_tokens + excluded.input_tokens,
       output_tokens = run_day_tag.output_tokens + excluded.output_tokens,
       exec_count = run_day_tag.exec_count + excluded.exec_count,
       cpu_ms = run_day_tag.cpu_ms + excluded.cpu_ms,
       bytes_read = run_day_tag.bytes_read + excluded.bytes_read,
       bytes_written = run_day_tag.bytes_written + excluded.bytes_written,
       billed_nanos = run_day_tag.billed_nanos + excluded.billed_nanos,
       billed_runs = run_day_tag.billed_runs + excluded.billed_runs,
       card_nanos = run_day_tag.card_nanos + excluded.card_nanos,
       card_runs = run_day_tag.card_runs + excluded.card_runs,
       memory_peak_mb = CASE WHEN run_day_tag.memory_peak_mb < 0 OR -1 - excluded.memory_peak_mb >= run_day_tag.memory_peak_mb THEN -1
                             ELSE run_day_tag.memory_peak_mb END;
INSERT INTO run_day_untagged (name, day, backend, model, runs, exec_ms, computed_nanos, input_tokens, output_tokens, exec_count, cpu_ms, bytes_read, bytes_written, billed_nanos, billed_runs, card_nanos, card_runs, memory_peak_mb)
SELECT n.name, r.started_day, r.backend, COALESCE(r.model, ''),
       -COUNT(*), -SUM(r.total_duration_ms), -SUM(r.computed_nanos), -SUM(r.input_tokens),
       -SUM(r.output_tokens), -SUM(r.exec_count), -SUM(r.cpu_ms), -SUM(r.bytes_read),
       -SUM(r.bytes_written), -COALESCE(SUM(r.billed_nanos), 0), -COUNT(r.billed_nanos),
       -COALESCE(SUM(r.card_nanos), 0), -COUNT(r.card_nanos), -1 - MAX(r.memory_peak_mb)
  FROM run r JOIN run_tag_name n
         ON NOT EXISTS (SELECT 1 FROM run_tag t WHERE t.rid = r.rid AND t.name = n.name)
 WHERE r.batch_id = :batch_id
 GROUP BY n.name, r.started_day, r.backend, COALESCE(r.model, '')
    ON CONFLICT (name, day, backend, model) DO UPDATE
   SET runs = run_day_untagged.runs + excluded.runs,
       exec_ms = run_day_untagged.exec_ms + excluded.exec_ms,
       computed_nanos = run_day_untagged.computed_nanos + excluded.computed_nanos,
       input_tokens = run_day_untagged.input_tokens + excluded.input_tokens,
       output_tokens = run_day_untagged.output_tokens + excluded.output_tokens,
       exec_count = run_day_untagged.exec_count + excluded.exec_count,
       cpu_ms = run_day_untagged.cpu_ms + excluded.cpu_ms,
       bytes_read = run_day_untagged.bytes_read + excluded.bytes_read,
       bytes_written = run_day_untagged.bytes_written + excluded.bytes_written,
       billed_nanos = run_day_untagged.billed_nanos + excluded.billed_nanos,
       billed_runs = run_day_untagged.billed_runs + excluded.billed_runs,
       card_nanos = run_day_untagged.card_nanos + excluded.card_nanos,
       card_runs = run_day_untagged.card_runs + excluded.card_runs,
       memory_peak_mb = CASE WHEN run_day_untagged.memory_peak_mb < 0 OR -1 - excluded.memory_peak_mb >= run_day_untagged.memory_peak_mb THEN -1
                             ELSE run_day_untagged.memory_peak_mb END;
DELETE FROM run_execs WHERE rid IN (SELECT rid FROM run WHERE batch_id = :batch_id);
DELETE FROM run_tag WHERE rid IN (SELECT rid FROM run WHERE batch_id = :batch_id);
DELETE FROM run WHERE batch_id = :batch_id;
DELETE FROM billing_line WHERE batch_id = :batch_id;
UPDATE billing_line SET superseded_by = NULL WHERE superseded_by = :batch_id;
DELETE FROM billing_line_pending WHERE batch_id = :batch_id;
DELETE FROM billing_row_seen WHERE batch_id = :batch_id;
DELETE FROM billing_supersede WHERE batch_id = :batch_id;
DELETE FROM reject WHERE batch_id = :batch_id;
