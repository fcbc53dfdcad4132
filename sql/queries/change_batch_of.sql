-- The newest batch among the changes logged after change :after_id that
-- meet [:from_ms, :to_ms) for :backend (or every backend): the batch a
-- re-judgment names for what moved (NULL when a setting moved it).
SELECT MAX(batch_id) AS batch_id
  FROM ledger_change
 WHERE change_id > :after_id AND (backend = :backend OR backend IS NULL)
   AND from_ms < :to_ms AND to_ms > :from_ms;
