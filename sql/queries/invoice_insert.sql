-- Store a finalized invoice.
-- invoice_id: the largest plus one, on both engines (SQLite's rowid rule; a
-- PostgreSQL identity would skip the numbers of rolled-back inserts).
INSERT INTO invoice (invoice_id, number, number_prefix, number_seq, tag, customer, from_ms, to_ms, basis,
                     currency, total_nanos, runs, notes, created_ms)
VALUES ((SELECT COALESCE(MAX(invoice_id), 0) + 1 FROM invoice), :number, :number_prefix, :number_seq, :tag, :customer, :from_ms, :to_ms, :basis,
        :currency, :total_nanos, :runs, :notes, :created_ms)
RETURNING invoice_id;   -- the id made (sb_db_last_id on both engines)
