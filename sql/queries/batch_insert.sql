-- A new batch, running.
INSERT INTO batch (kind, format, source, path, sha256, status, started_ms, options)
VALUES (:kind, :format, :source, :path, :sha256, 'running', :started_ms, :options);
