-- Store one execution of a run.
INSERT INTO execution (rid, seq, command, exit_code, duration_ms, cpu_ms, memory_peak_mb,
                       bytes_read, bytes_written, cost_nanos, extra)
VALUES (:rid, :seq, :command, :exit_code, :duration_ms, :cpu_ms, :memory_peak_mb,
        :bytes_read, :bytes_written, :cost_nanos, :extra);
