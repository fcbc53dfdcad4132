-- 006_batch_integrity: what an import needs to know that the file it
-- resumes, or has just read, is the file it began with (docs/rules.md,
-- "Import batches", and docs/reliability.md): the file's resolved path,
-- the SHA-256 of the prefix read at each commit, and why a batch failed.

-- The file the batch read, as an absolute path with no link in it (the
-- descriptor's path); NULL for standard input, a provider response, or a
-- batch of an older sbledger.
ALTER TABLE batch ADD COLUMN path TEXT;
-- Bytes of the input read when the batch last committed (at least up to
-- resume_offset: the reader reads ahead); NULL before its first commit.
ALTER TABLE batch ADD COLUMN prefix_length INTEGER;
-- SHA-256 (hex) of those prefix_length bytes: a resume goes on only when
-- the file still begins with them.
ALTER TABLE batch ADD COLUMN prefix_sha256 TEXT;
-- Why a 'failed' batch failed when it is not said by its rejects (the file
-- changed while it was read, and what was committed of it was taken out
-- again); NULL otherwise.
ALTER TABLE batch ADD COLUMN reason TEXT;
