-- Batches left 'running' by a process that died (the caller holds the write lock).
UPDATE batch SET status = 'interrupted' WHERE status = 'running';
