-- Record the runs a finalized invoice charges: those of its customer
-- (tag :tag = :customer, '(untagged)' without the tag) started in
-- [:from_ms, :to_ms).
INSERT INTO invoice_run (invoice_id, run_id)
SELECT :invoice_id, r.run_id
  FROM run r
  LEFT JOIN run_tag t ON t.rid = r.rid AND t.name = :tag
 WHERE r.started_ms >= :from_ms AND r.started_ms < :to_ms
   AND COALESCE(t.value, '(untagged)') = :customer;
