-- Whether any invoice is finalized (under any tag or period): without one,
-- no run is charged anywhere and the invoice skips invoice_claimed.sql.
SELECT EXISTS (SELECT 1 FROM invoice);
