-- SQLite's integrity check passes.
-- The query lists what breaks it.
SELECT 'integrity: ' || integrity_check FROM pragma_integrity_check WHERE integrity_check <> 'ok';
