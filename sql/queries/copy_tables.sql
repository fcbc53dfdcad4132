-- The tables 'sbledger copy' moves, in an order that stores every row
-- after the rows it refers to (a row is deleted in the reverse order):
-- n the position, name the table, rowid 1 when its rows must be read in
-- the order they were stored (reject: reject_list.sql lists the records
-- of one line in that order).  run_history comes before invoice_run:
-- its trigger (invoice_run_replaced_add) then finds no charged run, and
-- invoice_run_replaced is copied as it is.
SELECT 1 AS n, 'batch' AS name, 0 AS rowid
UNION ALL SELECT 2, 'run', 0
UNION ALL SELECT 3, 'run_tag', 0
UNION ALL SELECT 4, 'run_execs', 0
UNION ALL SELECT 5, 'run_history', 0
UNION ALL SELECT 6, 'execution_history', 0
UNION ALL SELECT 7, 'rate_card', 0
UNION ALL SELECT 8, 'backend', 0
UNION ALL SELECT 9, 'backend_region', 0
UNION ALL SELECT 10, 'model_price', 0
UNION ALL SELECT 11, 'billing_line', 0
UNION ALL SELECT 12, 'fx_rate', 0
UNION ALL SELECT 13, 'tolerance', 0
UNION ALL SELECT 14, 'reconciliation', 0
UNION ALL SELECT 15, 'reconciliation_backend', 0
UNION ALL SELECT 16, 'reconciliation_session', 0
UNION ALL SELECT 17, 'invoice', 0
UNION ALL SELECT 18, 'invoice_line', 0
UNION ALL SELECT 19, 'invoice_run', 0
UNION ALL SELECT 20, 'invoice_run_replaced', 0
UNION ALL SELECT 21, 'run_day', 0
UNION ALL SELECT 22, 'run_day_tag', 0
UNION ALL SELECT 23, 'run_tag_name', 0
UNION ALL SELECT 24, 'run_day_untagged', 0
UNION ALL SELECT 25, 'billing_line_pending', 0
UNION ALL SELECT 26, 'billing_supersede', 0
UNION ALL SELECT 27, 'billing_row_seen', 0
UNION ALL SELECT 28, 'ledger_change', 0
UNION ALL SELECT 29, 'backend_grain', 0
UNION ALL SELECT 30, 'flag', 0
UNION ALL SELECT 31, 'flag_event', 0
UNION ALL SELECT 32, 'reject', 1
ORDER BY n;
