-- Drop the row counts of a batch that has ended (it is never resumed).
DELETE FROM billing_row_seen WHERE batch_id = :batch_id;
