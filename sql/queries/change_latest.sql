-- The newest logged change (0 when none): what a result about to be
-- judged has seen.
SELECT COALESCE(MAX(change_id), 0) AS change_id FROM ledger_change;
