-- Put the executions of the replaced version :hid back, under run :rid, as
-- one row of run_execs: the JSON text SQLite's json_array and
-- json_group_array make, which is the writer's (sb_execs_json), the
-- executions in the order of seq (the window's ORDER BY).  No row when
-- that version listed none.
INSERT INTO run_execs (rid, execs)
SELECT CAST(:rid AS BIGINT), execs
  FROM (SELECT ROW_NUMBER() OVER w AS n,
               json_group_array(json_array(command, exit_code, duration_ms, cpu_ms, memory_peak_mb,
                                           bytes_read, bytes_written, cost_nanos, extra))
                   OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS execs
          FROM execution_history
         WHERE hid = :hid
        WINDOW w AS (ORDER BY seq)) h
 WHERE n = 1;
