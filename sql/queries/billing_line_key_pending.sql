-- The pending line of a superseding batch holding a line key: the batch, whether its content is
-- the line's (same: a duplicate within the file; not: a conflict), and its line.
SELECT batch_id,
       (backend IS :backend AND session_id IS :session_id AND start_ms = :start_ms
        AND end_ms = :end_ms AND kind = :kind AND amount_nanos IS :amount_nanos
        AND currency = :currency AND category IS :category AND correction = :correction
        AND quantity IS :quantity AND unit IS :unit AND vcpu_ms IS :vcpu_ms
        AND memory_mb_ms IS :memory_mb_ms AND list_cost_nanos IS :list_cost_nanos
        AND effective_cost_nanos IS :effective_cost_nanos AND invoice_id IS :invoice_id
        AND tags IS :tags AND extra IS :extra) AS same,
       line_no
  FROM billing_line_pending
 WHERE batch_id = :batch_id AND format = :format AND line_key = :line_key;
