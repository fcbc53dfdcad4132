-- Whether a run started in [:from_ms, :to_ms) can be on a finalized
-- invoice: one overlaps the period (it charged runs that started in it),
-- or a charged run was replaced since and may start in this period now
-- (invoice_run_replaced, sql/schema/009_invoice_once.sql).  When neither,
-- the invoice skips invoice_claimed.sql.
SELECT CASE WHEN EXISTS (SELECT 1 FROM invoice WHERE from_ms < :to_ms AND to_ms > :from_ms)
                 OR EXISTS (SELECT 1 FROM invoice_run_replaced)
            THEN 1 ELSE 0 END;
