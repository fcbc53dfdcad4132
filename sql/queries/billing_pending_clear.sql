-- Drop the pending lines of a batch: moved when it completed, or given up when it failed.
DELETE FROM billing_line_pending WHERE batch_id = :batch_id;
