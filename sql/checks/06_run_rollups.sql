-- The day rollups hold exactly the sums of the runs, of the tagged runs and of the untagged ones (sql/schema/005_rollup.sql, 010_scale.sql).
-- The query lists what breaks it.
-- Every run counts once in run_day, once per tag in run_day_tag, and once
-- per tracked tag name it lacks (run_tag_name) in run_day_untagged; each
-- group holds the sums of its runs' figures (billed_nanos and card_nanos
-- of the runs that have one, billed_runs and card_runs counting them) and
-- their largest memory_peak_mb.  Each sum is compared as its high and low
-- 32 bits, the runs' halves summed apart, so that a group whose sum passed
-- 64 bits (kept as a REAL, see 005_rollup.sql) is checked too, without an
-- "integer overflow" from SUM: both sides then hold NULL halves.  The
-- groups are compared with EXCEPT both ways, which sorts (a join of two
-- CTEs would compare every row with every row).
WITH counted (kind, name, value, day, backend, model, memory_peak_mb, exec_ms, computed_nanos, input_tokens, output_tokens, exec_count, cpu_ms, bytes_read, bytes_written, billed_nanos, billed_runs, card_nanos, card_runs) AS (
    SELECT 'day', NULL, NULL, r.started_day, r.backend, COALESCE(r.model, ''), r.memory_peak_mb,
           r.total_duration_ms, r.computed_nanos, r.input_tokens, r.output_tokens, r.exec_count, r.cpu_ms, r.bytes_read, r.bytes_written, COALESCE(r.billed_nanos, 0), (r.billed_nanos IS NOT NULL), COALESCE(r.card_nanos, 0), (r.card_nanos IS NOT NULL)
      FROM run r
    UNION ALL
    SELECT 'tag', t.name, t.value, r.started_day, r.backend, COALESCE(r.model, ''), r.memory_peak_mb,
           r.total_duration_ms, r.computed_nanos, r.input_tokens, r.output_tokens, r.exec_count, r.cpu_ms, r.bytes_read, r.bytes_written, COALESCE(r.billed_nanos, 0), (r.billed_nanos IS NOT NULL), COALESCE(r.card_nanos, 0), (r.card_nanos IS NOT NULL)
      FROM run r JOIN run_tag t ON t.rid = r.rid
    UNION ALL
    SELECT 'untagged', n.name, NULL, r.started_day, r.backend, COALESCE(r.model, ''), r.memory_peak_mb,
           r.total_duration_ms, r.computed_nanos, r.input_tokens, r.output_tokens, r.exec_count, r.cpu_ms, r.bytes_read, r.bytes_written, COALESCE(r.billed_nanos, 0), (r.billed_nanos IS NOT NULL), COALESCE(r.card_nanos, 0), (r.card_nanos IS NOT NULL)
      FROM run r JOIN run_tag_name n
     WHERE NOT EXISTS (SELECT 1 FROM run_tag t WHERE t.rid = r.rid AND t.name = n.name)),
parts AS (
    SELECT kind, name, value, day, backend, model, COUNT(*) AS runs, MAX(memory_peak_mb) AS memory_peak_mb,
           SUM(exec_ms >> 32) AS exec_ms_hi, SUM(exec_ms & 4294967295) AS exec_ms_lo,
           SUM(computed_nanos >> 32) AS computed_nanos_hi, SUM(computed_nanos & 4294967295) AS computed_nanos_lo,
           SUM(input_tokens >> 32) AS input_tokens_hi, SUM(input_tokens & 4294967295) AS input_tokens_lo,
           SUM(output_tokens >> 32) AS output_tokens_hi, SUM(output_tokens & 4294967295) AS output_tokens_lo,
           SUM(exec_count >> 32) AS exec_count_hi, SUM(exec_count & 4294967295) AS exec_count_lo,
           SUM(cpu_ms >> 32) AS cpu_ms_hi, SUM(cpu_ms & 4294967295) AS cpu_ms_lo,
           SUM(bytes_read >> 32) AS bytes_read_hi, SUM(bytes_read & 4294967295) AS bytes_read_lo,
           SUM(bytes_written >> 32) AS bytes_written_hi, SUM(bytes_written & 4294967295) AS bytes_written_lo,
           SUM(billed_nanos >> 32) AS billed_nanos_hi, SUM(billed_nanos & 4294967295) AS billed_nanos_lo,
           SUM(billed_runs >> 32) AS billed_runs_hi, SUM(billed_runs & 4294967295) AS billed_runs_lo,
           SUM(card_nanos >> 32) AS card_nanos_hi, SUM(card_nanos & 4294967295) AS card_nanos_lo,
           SUM(card_runs >> 32) AS card_runs_hi, SUM(card_runs & 4294967295) AS card_runs_lo
      FROM counted
     GROUP BY kind, name, value, day, backend, model),
want AS (
    SELECT kind, name, value, day, backend, model, runs, memory_peak_mb,
           CASE WHEN exec_ms_hi + (exec_ms_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN exec_ms_hi + (exec_ms_lo >> 32) END,
           CASE WHEN exec_ms_hi + (exec_ms_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN exec_ms_lo & 4294967295 END,
           CASE WHEN computed_nanos_hi + (computed_nanos_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN computed_nanos_hi + (computed_nanos_lo >> 32) END,
           CASE WHEN computed_nanos_hi + (computed_nanos_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN computed_nanos_lo & 4294967295 END,
           CASE WHEN input_tokens_hi + (input_tokens_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN input_tokens_hi + (input_tokens_lo >> 32) END,
           CASE WHEN input_tokens_hi + (input_tokens_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN input_tokens_lo & 4294967295 END,
           CASE WHEN output_tokens_hi + (output_tokens_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN output_tokens_hi + (output_tokens_lo >> 32) END,
           CASE WHEN output_tokens_hi + (output_tokens_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN output_tokens_lo & 4294967295 END,
           CASE WHEN exec_count_hi + (exec_count_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN exec_count_hi + (exec_count_lo >> 32) END,
           CASE WHEN exec_count_hi + (exec_count_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN exec_count_lo & 4294967295 END,
           CASE WHEN cpu_ms_hi + (cpu_ms_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN cpu_ms_hi + (cpu_ms_lo >> 32) END,
           CASE WHEN cpu_ms_hi + (cpu_ms_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN cpu_ms_lo & 4294967295 END,
           CASE WHEN bytes_read_hi + (bytes_read_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN bytes_read_hi + (bytes_read_lo >> 32) END,
           CASE WHEN bytes_read_hi + (bytes_read_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN bytes_read_lo & 4294967295 END,
           CASE WHEN bytes_written_hi + (bytes_written_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN bytes_written_hi + (bytes_written_lo >> 32) END,
           CASE WHEN bytes_written_hi + (bytes_written_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN bytes_written_lo & 4294967295 END,
           CASE WHEN billed_nanos_hi + (billed_nanos_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN billed_nanos_hi + (billed_nanos_lo >> 32) END,
           CASE WHEN billed_nanos_hi + (billed_nanos_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN billed_nanos_lo & 4294967295 END,
           CASE WHEN billed_runs_hi + (billed_runs_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN billed_runs_hi + (billed_runs_lo >> 32) END,
           CASE WHEN billed_runs_hi + (billed_runs_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN billed_runs_lo & 4294967295 END,
           CASE WHEN card_nanos_hi + (card_nanos_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN card_nanos_hi + (card_nanos_lo >> 32) END,
           CASE WHEN card_nanos_hi + (card_nanos_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN card_nanos_lo & 4294967295 END,
           CASE WHEN card_runs_hi + (card_runs_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN card_runs_hi + (card_runs_lo >> 32) END,
           CASE WHEN card_runs_hi + (card_runs_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN card_runs_lo & 4294967295 END
      FROM parts),
stored (kind, name, value, day, backend, model, runs, memory_peak_mb, exec_ms, computed_nanos, input_tokens, output_tokens, exec_count, cpu_ms, bytes_read, bytes_written, billed_nanos, billed_runs, card_nanos, card_runs) AS (
    SELECT 'day', NULL, NULL, day, backend, model, runs, memory_peak_mb, exec_ms, computed_nanos, input_tokens, output_tokens, exec_count, cpu_ms, bytes_read, bytes_written, billed_nanos, billed_runs, card_nanos, card_runs FROM run_day
    UNION ALL
    SELECT 'tag', name, value, day, backend, model, runs, memory_peak_mb, exec_ms, computed_nanos, input_tokens, output_tokens, exec_count, cpu_ms, bytes_read, bytes_written, billed_nanos, billed_runs, card_nanos, card_runs FROM run_day_tag
    UNION ALL
    SELECT 'untagged', name, NULL, day, backend, model, runs, memory_peak_mb, exec_ms, computed_nanos, input_tokens, output_tokens, exec_count, cpu_ms, bytes_read, bytes_written, billed_nanos, billed_runs, card_nanos, card_runs FROM run_day_untagged),
have AS (
    SELECT kind, name, value, day, backend, model, runs, memory_peak_mb,
           CASE typeof(exec_ms) WHEN 'integer' THEN exec_ms >> 32 END,
           CASE typeof(exec_ms) WHEN 'integer' THEN exec_ms & 4294967295 END,
           CASE typeof(computed_nanos) WHEN 'integer' THEN computed_nanos >> 32 END,
           CASE typeof(computed_nanos) WHEN 'integer' THEN computed_nanos & 4294967295 END,
           CASE typeof(input_tokens) WHEN 'integer' THEN input_tokens >> 32 END,
           CASE typeof(input_tokens) WHEN 'integer' THEN input_tokens & 4294967295 END,
           CASE typeof(output_tokens) WHEN 'integer' THEN output_tokens >> 32 END,
           CASE typeof(output_tokens) WHEN 'integer' THEN output_tokens & 4294967295 END,
           CASE typeof(exec_count) WHEN 'integer' THEN exec_count >> 32 END,
           CASE typeof(exec_count) WHEN 'integer' THEN exec_count & 4294967295 END,
           CASE typeof(cpu_ms) WHEN 'integer' THEN cpu_ms >> 32 END,
           CASE typeof(cpu_ms) WHEN 'integer' THEN cpu_ms & 4294967295 END,
           CASE typeof(bytes_read) WHEN 'integer' THEN bytes_read >> 32 END,
           CASE typeof(bytes_read) WHEN 'integer' THEN bytes_read & 4294967295 END,
           CASE typeof(bytes_written) WHEN 'integer' THEN bytes_written >> 32 END,
           CASE typeof(bytes_written) WHEN 'integer' THEN bytes_written & 4294967295 END,
           CASE typeof(billed_nanos) WHEN 'integer' THEN billed_nanos >> 32 END,
           CASE typeof(billed_nanos) WHEN 'integer' THEN billed_nanos & 4294967295 END,
           CASE typeof(billed_runs) WHEN 'integer' THEN billed_runs >> 32 END,
           CASE typeof(billed_runs) WHEN 'integer' THEN billed_runs & 4294967295 END,
           CASE typeof(card_nanos) WHEN 'integer' THEN card_nanos >> 32 END,
           CASE typeof(card_nanos) WHEN 'integer' THEN card_nanos & 4294967295 END,
           CASE typeof(card_runs) WHEN 'integer' THEN card_runs >> 32 END,
           CASE typeof(card_runs) WHEN 'integer' THEN card_runs & 4294967295 END
      FROM stored
     WHERE runs <> 0 OR exec_ms <> 0 OR computed_nanos <> 0 OR input_tokens <> 0 OR output_tokens <> 0 OR exec_count <> 0 OR cpu_ms <> 0 OR bytes_read <> 0 OR bytes_written <> 0 OR billed_nanos <> 0 OR billed_runs <> 0 OR card_nanos <> 0 OR card_runs <> 0)
SELECT DISTINCT
       CASE kind
            WHEN 'day' THEN 'run_day ' || day || ' ' || backend || ' ' || model || ': the rollup disagrees with the runs'
            WHEN 'tag' THEN 'run_day_tag ' || name || '=' || value || ' ' || day || ' ' || backend || ' ' || model
                            || ': the rollup disagrees with the tagged runs'
            ELSE 'run_day_untagged ' || name || ' ' || day || ' ' || backend || ' ' || model
                 || ': the rollup disagrees with the runs without the tag' END
  FROM (SELECT * FROM (SELECT * FROM want EXCEPT SELECT * FROM have)
        UNION ALL
        SELECT * FROM (SELECT * FROM have EXCEPT SELECT * FROM want))
 ORDER BY 1;
