-- 007_invoice_once: a run is on one finalized invoice at most, under any
-- tag (docs/reports.md, "One finalized invoice per run"), and an invoice
-- remembers which version of each run it charged, so that its
-- adjustments can name the runs replaced, moved or repriced since.
--
-- Ledgers finalized before this version may already hold a run on two
-- invoices (tag:customer, then tag:team): those rows stay (a finalized
-- invoice never changes) and are marked duplicate = 1 on every invoice
-- but the first that charged the run; the unique index covers the rows
-- with duplicate = 0, so no new row can charge a run again, by any path.

-- The version of the run the invoice charged: run.fingerprint at the
-- time.  For the rows already stored: the version that was live when the
-- invoice was finalized (the oldest version replaced after that instant,
-- else the run as it is).
ALTER TABLE invoice_run ADD COLUMN fingerprint TEXT;  -- run.fingerprint of the version charged; NULL only when the run is unknown

-- 1 on a row stored before this version for a run an earlier invoice
-- already charged; 0 on every other row (and on every row stored since).
ALTER TABLE invoice_run ADD COLUMN duplicate INTEGER NOT NULL DEFAULT 0;

DROP TRIGGER invoice_run_no_update;

UPDATE invoice_run
   SET fingerprint = COALESCE(
           (SELECT h.fingerprint
              FROM run_history h, invoice i
             WHERE h.run_id = invoice_run.run_id AND i.invoice_id = invoice_run.invoice_id
               AND h.replaced_ms > i.created_ms
             ORDER BY h.replaced_ms, h.hid
             LIMIT 1),
           (SELECT r.fingerprint FROM run r WHERE r.run_id = invoice_run.run_id)),
       duplicate = EXISTS (SELECT 1 FROM invoice_run e
                            WHERE e.run_id = invoice_run.run_id AND e.invoice_id < invoice_run.invoice_id);

CREATE TRIGGER invoice_run_no_update BEFORE UPDATE ON invoice_run
BEGIN SELECT RAISE(ABORT, 'a finalized invoice never changes'); END;

-- The rule itself: one row with duplicate = 0 per run.  It also finds the
-- invoice that charged a run (the invoice queries join through it).
CREATE UNIQUE INDEX invoice_run_once ON invoice_run (run_id) WHERE duplicate = 0;

-- No new row may call itself a duplicate (that would step around the
-- index).
CREATE TRIGGER invoice_run_no_duplicate BEFORE INSERT ON invoice_run
WHEN NEW.duplicate <> 0
BEGIN SELECT RAISE(ABORT, 'a run is on one finalized invoice at most'); END;

-- The charged runs replaced since (import runs --replace), by run id: a
-- replaced run may now start in another period than the invoice that
-- charged it, so an invoice reads which runs of its period are charged
-- (sql/queries/invoice_claimed.sql) when a finalized invoice overlaps its
-- period or when this table is not empty, and skips that read otherwise.
CREATE TABLE invoice_run_replaced (
    run_id        TEXT PRIMARY KEY               -- a run on a finalized invoice, replaced after it was charged
) WITHOUT ROWID;

-- Kept by the replace itself: the old version goes to run_history.
CREATE TRIGGER invoice_run_replaced_add AFTER INSERT ON run_history
WHEN EXISTS (SELECT 1 FROM invoice_run WHERE run_id = NEW.run_id AND duplicate = 0)
BEGIN INSERT OR IGNORE INTO invoice_run_replaced (run_id) VALUES (NEW.run_id); END;

-- The runs already replaced since their invoice.
INSERT OR IGNORE INTO invoice_run_replaced (run_id)
SELECT ir.run_id
  FROM invoice_run ir JOIN run r ON r.run_id = ir.run_id
 WHERE ir.duplicate = 0 AND r.fingerprint IS NOT ir.fingerprint;
