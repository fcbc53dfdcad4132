-- PostgreSQL's billing_row_seen_first.sql: rows of one COPY (see
-- sql/pg/queries/run_load.sql), which the line writer's look-ups step
-- past (ledger/lines.c).
COPY billing_row_seen (batch_id, row_hash, seen) FROM STDIN;
