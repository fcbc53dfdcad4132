-- 008_recon_windows: what a stored reconciliation needs so that the
-- nightly job can tell which periods to judge again (docs/reconcile.md):
-- the window each backend was judged over, whether each backend and
-- session was flagged, the time it was judged at and the billing lag it
-- used.  Results stored before this migration have NULL in every new
-- column: they were judged under the earlier rules and are left as they
-- are (nightly never judges them again on its own).

-- The parameters of a reconciliation, and its counts split.
ALTER TABLE reconciliation ADD COLUMN judged_ms INTEGER;        -- the time windows were compared with (pending, --billing-lag)
ALTER TABLE reconciliation ADD COLUMN billing_lag_ms INTEGER;   -- --billing-lag it ran with, in ms
ALTER TABLE reconciliation ADD COLUMN flagged_backends INTEGER; -- backends flagged
ALTER TABLE reconciliation ADD COLUMN flagged_sessions INTEGER; -- sessions flagged (flagged = the two added)

-- Each backend's window and flag.
ALTER TABLE reconciliation_backend ADD COLUMN window_from_ms INTEGER;   -- what it was judged over, [from, to): the period, or its billing grid's window
ALTER TABLE reconciliation_backend ADD COLUMN window_to_ms INTEGER;
ALTER TABLE reconciliation_backend ADD COLUMN flagged INTEGER;          -- 1 flagged, 0 not (unbilled is flagged only once the window ended more than the lag ago)
ALTER TABLE reconciliation_backend ADD COLUMN sessions_flagged INTEGER; -- how many of its sessions were flagged

-- Each listed session's flag (a session is judged over the period itself).
ALTER TABLE reconciliation_session ADD COLUMN flagged INTEGER;          -- 1 flagged, 0 not

-- The account-level lines (no session) by charge period: reconcile reads
-- those overlapping the days around a period to find a backend's billing
-- grid (the index alone answers the overlap), and a ledger of per-session
-- lines has many more of the others.
CREATE INDEX billing_line_account_by_start ON billing_line (start_ms, end_ms) WHERE session_id IS NULL;
