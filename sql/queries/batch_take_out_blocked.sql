-- What keeps batch :batch_id from being taken out again without losing
-- anything: batches begun after it that did not fail (they may have
-- counted its runs or lines as duplicates), and its runs on a finalized
-- invoice.
SELECT (SELECT COUNT(*) FROM batch WHERE batch_id > :batch_id AND status <> 'failed'),
       (SELECT COUNT(*) FROM invoice_run i JOIN run r ON r.run_id = i.run_id
         WHERE r.batch_id = :batch_id);
