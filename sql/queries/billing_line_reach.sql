-- Among the live lines of a format and backend: the longest charge period (ms; 0 when none),
-- and of those of batches other than :batch_id the earliest start and the latest end, a
-- zero-length period ending a millisecond after its start (both NULL when none).  A line that
-- starts at or after that end, or ends (so counted) at or before that start, overlaps none of
-- them: the writer then needs no look-up of the same charge (ledger/lines.c).
SELECT COALESCE(MAX(end_ms - start_ms), 0),
       MIN(CASE WHEN batch_id <> :batch_id THEN start_ms END),
       MAX(CASE WHEN batch_id <> :batch_id THEN CASE WHEN end_ms > start_ms THEN end_ms ELSE start_ms + 1 END END)
  FROM billing_line
 WHERE format = :format AND backend = :backend AND superseded_by IS NULL;
