-- Take an interrupted batch up again (the SHA-256 of the file as it is
-- now, when given: it may have grown since).
UPDATE batch SET status = 'running', options = :options, sha256 = COALESCE(:sha256, sha256)
 WHERE batch_id = :batch_id;
