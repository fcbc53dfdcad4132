-- PostgreSQL's run_execs_insert.sql: rows of one COPY (see
-- sql/pg/queries/run_load.sql).  Store the executions of a run that
-- lists any, as one row (the text made by sb_execs_json).
COPY run_execs (rid, execs) FROM STDIN;
