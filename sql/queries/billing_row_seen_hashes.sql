-- The row hashes a batch has counted (a resumed batch's, from before it was interrupted).
SELECT row_hash FROM billing_row_seen WHERE batch_id = :batch_id;
