-- Store 4 executions of one run in one statement; row I binds :seqI,
-- :commandI, ... as execution_insert.sql binds :seq, :command, ...; :rid
-- is the run's.  The run writer stores a run's executions 8, 4, 2 and 1
-- at a time: a statement has a fixed cost besides its rows.
INSERT INTO execution (rid, seq, command, exit_code, duration_ms, cpu_ms, memory_peak_mb,
                       bytes_read, bytes_written, cost_nanos, extra)
VALUES (:rid, :seq0, :command0, :exit_code0, :duration_ms0, :cpu_ms0, :memory_peak_mb0,
        :bytes_read0, :bytes_written0, :cost_nanos0, :extra0),
       (:rid, :seq1, :command1, :exit_code1, :duration_ms1, :cpu_ms1, :memory_peak_mb1,
        :bytes_read1, :bytes_written1, :cost_nanos1, :extra1),
       (:rid, :seq2, :command2, :exit_code2, :duration_ms2, :cpu_ms2, :memory_peak_mb2,
        :bytes_read2, :bytes_written2, :cost_nanos2, :extra2),
       (:rid, :seq3, :command3, :exit_code3, :duration_ms3, :cpu_ms3, :memory_peak_mb3,
        :bytes_read3, :bytes_written3, :cost_nanos3, :extra3);
