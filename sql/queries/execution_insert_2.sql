-- Store 2 executions of one run in one statement; row I binds :seqI,
-- :commandI, ... as execution_insert.sql binds :seq, :command, ...; :rid
-- is the run's.  The run writer stores a run's executions 8, 4, 2 and 1
-- at a time: a statement has a fixed cost besides its rows.
INSERT INTO execution (rid, seq, command, exit_code, duration_ms, cpu_ms, memory_peak_mb,
                       bytes_read, bytes_written, cost_nanos, extra)
VALUES (:rid, :seq0, :command0, :exit_code0, :duration_ms0, :cpu_ms0, :memory_peak_mb0,
        :bytes_read0, :bytes_written0, :cost_nanos0, :extra0),
       (:rid, :seq1, :command1, :exit_code1, :duration_ms1, :cpu_ms1, :memory_peak_mb1,
        :bytes_read1, :bytes_written1, :cost_nanos1, :extra1);
