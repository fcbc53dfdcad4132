-- Count one more row of a batch's file with this normalized content; the count so far comes
-- back (1 for the first such row: its ordinal is the count less one).
INSERT INTO billing_row_seen (batch_id, row_hash, seen)
VALUES (:batch_id, :row_hash, 1)
ON CONFLICT (batch_id, row_hash) DO UPDATE SET seen = billing_row_seen.seen + 1
RETURNING seen;
