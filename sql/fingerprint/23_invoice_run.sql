-- invoice_run: the runs each finalized invoice charged
-- Left out: invoice_id: the invoice by its number instead.
SELECT i.number,      -- the invoice
       u.run_id,      -- the run
       u.fingerprint, -- the version charged (run.fingerprint then)
       u.duplicate    -- 1 on an older row for a run charged before
  FROM invoice_run u
  LEFT JOIN invoice i ON i.invoice_id = u.invoice_id;
