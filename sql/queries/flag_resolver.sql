-- The newest batch that changed :backend's figures (or every backend's)
-- after result :recon_id was judged: the batch a re-judgment names when
-- it resolves or reopens a flag (NULL when a setting did it).
SELECT MAX(c.batch_id) AS batch_id
  FROM ledger_change c, reconciliation r
 WHERE r.recon_id = :recon_id AND c.change_id > COALESCE(r.change_id, 0)
   AND (c.backend = :backend OR c.backend IS NULL);
