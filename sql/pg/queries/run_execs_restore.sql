-- Put the executions of the replaced version :hid back, under run :rid, as
-- one row of run_execs: the JSON text SQLite's json_array and
-- json_group_array make, which is the writer's (sb_execs_json), the
-- executions in the order of seq (the window's ORDER BY).  No row when
-- that version listed none.
-- PostgreSQL (sql/queries/run_execs_restore.sql is SQLite's): the same
-- text written out, since json_build_array and json_agg put a space after
-- each comma: each execution [command,exit_code,duration_ms,cpu_ms,
-- memory_peak_mb,bytes_read,bytes_written,cost_nanos,extra], null for a
-- NULL, the two texts as JSON strings by to_json (which escapes as
-- SQLite's json_quote does: \" \\ \b \f \n \r \t, \u00xx for the other
-- bytes below 0x20), the executions joined by commas in the order of seq.
INSERT INTO run_execs (rid, execs)
SELECT CAST(:rid AS BIGINT),
       '[' || string_agg('[' || COALESCE(CAST(to_json(command) AS TEXT), 'null')
                         || ',' || COALESCE(CAST(exit_code AS TEXT), 'null')
                         || ',' || CAST(duration_ms AS TEXT)
                         || ',' || CAST(cpu_ms AS TEXT)
                         || ',' || CAST(memory_peak_mb AS TEXT)
                         || ',' || CAST(bytes_read AS TEXT)
                         || ',' || CAST(bytes_written AS TEXT)
                         || ',' || COALESCE(CAST(cost_nanos AS TEXT), 'null')
                         || ',' || COALESCE(CAST(to_json(extra) AS TEXT), 'null') || ']',
                         ',' ORDER BY seq) || ']'
  FROM execution_history
 WHERE hid = :hid
HAVING COUNT(*) > 0;
