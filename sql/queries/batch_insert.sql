-- A new batch, running.
-- batch_id: the largest plus one, on both engines (SQLite's rowid rule; a
-- PostgreSQL identity would skip the numbers of rolled-back inserts).
INSERT INTO batch (batch_id, kind, format, source, path, sha256, status, started_ms, options)
VALUES ((SELECT COALESCE(MAX(batch_id), 0) + 1 FROM batch), :kind, :format, :source, :path, :sha256, 'running', :started_ms, :options)
RETURNING batch_id;   -- the id made (sb_db_last_id on both engines)
