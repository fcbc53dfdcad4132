-- The runs of a finalized invoice's period and customer that it did not
-- charge (they arrived after it was finalized), by run id.
SELECT r.run_id
  FROM run r
  LEFT JOIN run_tag t ON t.rid = r.rid AND t.name = :tag
 WHERE r.started_ms >= :from_ms AND r.started_ms < :to_ms
   AND COALESCE(t.value, '(untagged)') = :customer
   AND NOT EXISTS (SELECT 1 FROM invoice_run i
                    WHERE i.invoice_id = :invoice_id AND i.run_id = r.run_id)
 ORDER BY r.run_id;
