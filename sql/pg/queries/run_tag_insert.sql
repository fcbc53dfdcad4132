-- PostgreSQL's run_tag_insert.sql: rows of one COPY (see
-- sql/pg/queries/run_load.sql).  Store one tag of a run.
COPY run_tag (rid, name, value) FROM STDIN;
