-- Count the first row of a batch's file with this normalized content, which the writer knows no
-- earlier row of the file had (ledger/lines.c: not in its filter of the row hashes counted).
INSERT INTO billing_row_seen (batch_id, row_hash, seen) VALUES (:batch_id, :row_hash, :seen);
