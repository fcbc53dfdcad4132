-- Put the executions of the replaced version :hid back, under run :rid.
INSERT INTO execution (rid, seq, command, exit_code, duration_ms, cpu_ms, memory_peak_mb,
                       bytes_read, bytes_written, cost_nanos, extra)
SELECT :rid, seq, command, exit_code, duration_ms, cpu_ms, memory_peak_mb,
       bytes_read, bytes_written, cost_nanos, extra
  FROM execution_history WHERE hid = :hid;
