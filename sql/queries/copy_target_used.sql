-- Whether a ledger already holds something of its own, so that 'sbledger
-- copy' will not write into it: its batches, reconciliations and
-- invoices (what init seeds does not count).
SELECT (SELECT COUNT(*) FROM batch) AS batches,
       (SELECT COUNT(*) FROM reconciliation) AS reconciliations,
       (SELECT COUNT(*) FROM invoice) AS invoices;
