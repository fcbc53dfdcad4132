-- invoice_run_replaced: the charged runs replaced since their invoice
SELECT p.run_id -- the run
  FROM invoice_run_replaced p;
