-- The newest batch among the changes logged after stored result
-- :after_recon was judged (every change when it is 0) that meet
-- [:from_ms, :to_ms) for :backend (or every backend): the batch a
-- re-judgment names for what moved, in the night's output and in a flag
-- it resolves or reopens (NULL when a setting moved it).
SELECT MAX(c.batch_id) AS batch_id
  FROM ledger_change c
 WHERE c.change_id > COALESCE((SELECT r.change_id FROM reconciliation r WHERE r.recon_id = :after_recon), 0)
   AND (c.backend = :backend OR c.backend IS NULL)
   AND c.from_ms < :to_ms AND c.to_ms > :from_ms;
