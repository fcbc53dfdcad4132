-- The runs a finalized invoice's adjustment names (:invoice_id, charged
-- by tag :tag = :customer over [:from_ms, :to_ms)), one row each: the
-- kind (0 late, 1 moved_in, 2 moved_out, 3 repriced, 4 replaced,
-- 5 duplicate: reconcile/invoice.h sb_adjust_kind), the run, and for a
-- run moved out the customer it has now (NULL when it left the period),
-- for one moved in the customer it had and the invoice that charged it,
-- for a duplicate the invoice that charged it first.  By kind, then run.
--
-- Runs it charged (invoice_run): duplicate when an earlier invoice
-- charged them too (a row from before sql/schema/009_invoice_once.sql);
-- moved_out when their value of the tag is no longer the customer or they
-- no longer start in the period; else repriced or replaced when their
-- fingerprint is no longer the one charged: replaced when the version
-- charged (run_history, by that fingerprint) has the same figures as the
-- run now (backend, session, exec time, computed and own billed cost,
-- model, tokens), repriced when not.  Runs it did not charge that are now
-- of its customer and period: late when no finalized invoice charged
-- them, moved_in when an invoice of the same tag charged them and they
-- have left it since.
SELECT kind, run_id, to_customer, from_customer, invoice
  FROM (SELECT CASE WHEN ir.duplicate <> 0 THEN 5
                    WHEN COALESCE(t.value, '(untagged)') <> :customer
                         OR r.started_ms < :from_ms OR r.started_ms >= :to_ms THEN 2
                    WHEN r.fingerprint IS DISTINCT FROM ir.fingerprint THEN
                         CASE WHEN EXISTS (SELECT 1 FROM run_history h
                                            WHERE h.run_id = r.run_id AND h.fingerprint = ir.fingerprint
                                              AND h.backend = r.backend
                                              AND h.session_id IS NOT DISTINCT FROM r.session_id
                                              AND h.total_duration_ms = r.total_duration_ms
                                              AND h.computed_nanos = r.computed_nanos
                                              AND h.billed_nanos IS NOT DISTINCT FROM r.billed_nanos
                                              AND h.model IS NOT DISTINCT FROM r.model
                                              AND h.input_tokens = r.input_tokens
                                              AND h.output_tokens = r.output_tokens)
                              THEN 4 ELSE 3 END
               END AS kind,
               ir.run_id,
               CASE WHEN r.started_ms >= :from_ms AND r.started_ms < :to_ms
                    THEN COALESCE(t.value, '(untagged)') END AS to_customer,
               NULL AS from_customer,
               (SELECT f.number FROM invoice_run fr JOIN invoice f ON f.invoice_id = fr.invoice_id
                 WHERE fr.run_id = ir.run_id AND fr.duplicate = 0) AS invoice
          FROM invoice_run ir
          JOIN run r ON r.run_id = ir.run_id
          LEFT JOIN run_tag t ON t.rid = r.rid AND t.name = :tag
         WHERE ir.invoice_id = :invoice_id
        UNION ALL
        SELECT CASE WHEN ir.run_id IS NULL THEN 0 ELSE 1 END, r.run_id, NULL, i.customer, i.number
          FROM run r
          LEFT JOIN run_tag t ON t.rid = r.rid AND t.name = :tag
          LEFT JOIN invoice_run ir ON ir.run_id = r.run_id AND ir.duplicate = 0
          LEFT JOIN invoice i ON i.invoice_id = ir.invoice_id
          LEFT JOIN run_tag ti ON ti.rid = r.rid AND ti.name = i.tag
         WHERE r.started_ms >= :from_ms AND r.started_ms < :to_ms
           AND COALESCE(t.value, '(untagged)') = :customer
           AND (ir.run_id IS NULL
                OR (ir.invoice_id <> :invoice_id AND i.tag = :tag
                    AND NOT (COALESCE(ti.value, '(untagged)') = i.customer
                             AND r.started_ms >= i.from_ms AND r.started_ms < i.to_ms)))) c
 WHERE kind IS NOT NULL
 ORDER BY kind, run_id;
