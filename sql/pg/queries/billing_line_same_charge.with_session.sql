-- PostgreSQL's billing_line_same_charge.sql for a line with a session and no charge identity
-- (ledger/lines.c names the case): the shared query's branches that can
-- match it, each comparing the columns of billing_line_charge with = or
-- IS NULL, so that the index is searched (PostgreSQL cannot search one
-- for IS NOT DISTINCT FROM, and the shared text would read every line of
-- the format and backend for each line imported; split in one text, its
-- plan would be made again for every line).  The same identity, and with
-- :loose any line with one.  See sql/queries/billing_line_same_charge.sql.
SELECT MIN(batch_id)
  FROM (
        SELECT batch_id, end_ms, start_ms, category, correction, line_key
          FROM billing_line
         WHERE CAST(:session_id AS TEXT) IS NOT NULL AND CAST(:charge_identity AS TEXT) IS NULL
           AND session_id = :session_id AND charge_identity IS NULL
           AND format = :format AND backend = :backend AND superseded_by IS NULL
           AND start_ms >= :start_ms - :reach AND start_ms < CASE WHEN :end_ms > :start_ms THEN :end_ms ELSE :start_ms + 1 END
        UNION ALL
        SELECT batch_id, end_ms, start_ms, category, correction, line_key
          FROM billing_line
         WHERE :loose <> 0 AND CAST(:session_id AS TEXT) IS NOT NULL AND CAST(:charge_identity AS TEXT) IS NULL
           AND session_id = :session_id AND charge_identity IS NOT NULL
           AND format = :format AND backend = :backend AND superseded_by IS NULL
           AND start_ms >= :start_ms - :reach AND start_ms < CASE WHEN :end_ms > :start_ms THEN :end_ms ELSE :start_ms + 1 END) c
 WHERE CASE WHEN end_ms > start_ms THEN end_ms ELSE start_ms + 1 END > :start_ms
   AND batch_id <> :batch_id AND category IS NOT DISTINCT FROM :category AND correction = 0
   AND line_key <> :line_key;
