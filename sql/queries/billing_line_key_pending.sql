-- The pending line of a superseding batch holding a line key: the batch, whether its content is
-- the line's (same: a duplicate within the file; not: a conflict), and its line.
SELECT batch_id,
       CASE WHEN backend IS NOT DISTINCT FROM :backend AND session_id IS NOT DISTINCT FROM :session_id
             AND start_ms = :start_ms AND end_ms = :end_ms AND kind = :kind
             AND amount_nanos IS NOT DISTINCT FROM :amount_nanos AND currency = :currency
             AND category IS NOT DISTINCT FROM :category AND correction = :correction
             AND quantity IS NOT DISTINCT FROM :quantity AND unit IS NOT DISTINCT FROM :unit
             AND vcpu_ms IS NOT DISTINCT FROM :vcpu_ms AND memory_mb_ms IS NOT DISTINCT FROM :memory_mb_ms
             AND list_cost_nanos IS NOT DISTINCT FROM :list_cost_nanos
             AND effective_cost_nanos IS NOT DISTINCT FROM :effective_cost_nanos
             AND invoice_id IS NOT DISTINCT FROM :invoice_id AND tags IS NOT DISTINCT FROM :tags
             AND extra IS NOT DISTINCT FROM :extra
            THEN 1 ELSE 0 END AS same,
       line_no
  FROM billing_line_pending
 WHERE batch_id = :batch_id AND format = :format AND line_key = :line_key;
