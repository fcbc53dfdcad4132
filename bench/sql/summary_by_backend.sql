-- The aggregation of 'sbledger report summary --by backend' written as one
-- bare query, the yardstick for the report (bench/run.sh runs it with the
-- sqlite3 shell, :from_ms and :to_ms set to the period): per backend, the
-- runs started in the period, the SandboxUsage sums and maximum, the card
-- cost and the tokens.
SELECT backend,
       COUNT(*),
       SUM(exec_count),
       SUM(total_duration_ms),
       SUM(cpu_ms),
       MAX(memory_peak_mb),
       SUM(bytes_read),
       SUM(bytes_written),
       SUM(computed_nanos),
       SUM(billed_nanos),
       SUM(card_nanos),
       COUNT(card_nanos),
       SUM(input_tokens),
       SUM(output_tokens)
  FROM run
 WHERE started_ms >= :from_ms AND started_ms < :to_ms
 GROUP BY backend
 ORDER BY backend;
