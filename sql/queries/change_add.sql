-- Log one change that can move stored figures (a setting: a rate card, a
-- token price, an exchange rate, a tolerance, a grain): which backend
-- (NULL: every one) and which span of time.  change_id: the largest plus
-- one, taken inside the writing transaction (writers take turns).
INSERT INTO ledger_change (change_id, made_ms, what, backend, from_ms, to_ms, batch_id)
VALUES ((SELECT COALESCE(MAX(change_id), 0) + 1 FROM ledger_change), :made_ms, :what, :backend,
        :from_ms, :to_ms, :batch_id);
