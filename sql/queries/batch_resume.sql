-- Take an interrupted batch up again.
UPDATE batch SET status = 'running', options = :options WHERE batch_id = :batch_id;
