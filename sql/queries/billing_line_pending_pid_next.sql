-- The row id the next pending line gets (billing_line_pending_insert.sql): the highest + 1.
SELECT COALESCE(MAX(pid), 0) + 1 FROM billing_line_pending;
