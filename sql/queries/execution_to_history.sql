-- Keep the executions of a replaced run with its history row.
INSERT INTO execution_history (hid, seq, command, exit_code, duration_ms, cpu_ms,
                               memory_peak_mb, bytes_read, bytes_written, cost_nanos, extra)
SELECT CAST(:hid AS BIGINT), seq, command, exit_code, duration_ms, cpu_ms,
       memory_peak_mb, bytes_read, bytes_written, cost_nanos, extra
  FROM execution WHERE rid = :rid;
