-- Record the runs a finalized invoice charges: those of its customer
-- (tag :tag = :customer, '(untagged)' without the tag) started in
-- [:from_ms, :to_ms) that no finalized invoice charged yet, each with the
-- fingerprint of the version charged.  (The unique index of
-- sql/schema/009_invoice_once.sql refuses a run charged already.)
INSERT INTO invoice_run (invoice_id, run_id, fingerprint)
SELECT CAST(:invoice_id AS BIGINT), r.run_id, r.fingerprint
  FROM run r
  LEFT JOIN run_tag t ON t.rid = r.rid AND t.name = :tag
 WHERE r.started_ms >= :from_ms AND r.started_ms < :to_ms
   AND COALESCE(t.value, '(untagged)') = :customer
   AND NOT EXISTS (SELECT 1 FROM invoice_run c WHERE c.run_id = r.run_id AND c.duplicate = 0);
