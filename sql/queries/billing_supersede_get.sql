-- Whether a batch supersedes (a row), and the period it covers when one was given.
SELECT from_ms, to_ms FROM billing_supersede WHERE batch_id = :batch_id;
