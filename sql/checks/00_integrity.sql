-- The ledger's storage passes its own integrity check.
-- On SQLite that is PRAGMA integrity_check: every page of the file.
-- The query lists what breaks it.
SELECT 'integrity: ' || integrity_check FROM pragma_integrity_check WHERE integrity_check <> 'ok';
