# sbledger copy (docs/postgresql.md, "Moving a ledger"): every row of one
# ledger into another, exactly, checked by fingerprints before it commits;
# a ledger that holds batches, reconciliations or invoices is not copied
# into; usage errors touch nothing.  (Between two files here; the copies
# between engines are tests/reliability/pg_concurrency.sh's.)
cp "$SAMPLES/runs.jsonl" "$SAMPLES/billing-modal.json" .
sb --db a.db init >/dev/null
sb --db a.db import runs runs.jsonl >/dev/null 2>&1
sb --db a.db import billing --format modal billing-modal.json >/dev/null 2>&1
sb --db a.db reconcile --period 2026-11 >/dev/null 2>&1
sb copy --from a.db --to b.db
"$SB" --db a.db check --fingerprint >a.fp
"$SB" --db b.db check --fingerprint >b.fp
cmp a.fp b.fp && echo "fingerprints equal: $(wc -l <a.fp) tables"
sb --db b.db check --quiet
sb --db b.db batches --format csv | cut -d, -f1-3,9
# b.db holds batches now: refused, left as it was
sb copy --from a.db --to b.db
"$SB" --db b.db check --fingerprint | cmp - b.fp && echo "b.db unchanged"
# a new ledger made by init takes a copy; the seeded rates are replaced
sb --db c.db init >/dev/null
sb --db c.db rates set e2b --usd-per-minute 9 >/dev/null
sb copy --from a.db --to c.db
"$SB" --db c.db check --fingerprint | cmp - a.fp && echo "c.db holds what a.db holds"
# usage errors, nothing made
sb copy --from a.db
sb copy --from a.db --to a.db
sb copy --to d.db x
ls d.db 2>&1 | sed 's/.*: //'
# a missing ledger to copy
sb copy --from missing.db --to e.db
