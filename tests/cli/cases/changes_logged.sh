# What each import logs among the changes that make stored results stale
# (docs/reconcile.md, "Stale"): a billing file's lines by backend and UTC
# day of their charge starts; the same file again with --supersede (the
# same lines: nothing moves) logs nothing; a reissued file with one
# amount changed logs that charge's day only; runs by backend and day of
# their starts; a rate card its backend from its date on.
rec() {
	printf '{"backend": "%s", "session_id": "%s", "cost_usd": %s, "currency": "USD", "unit": "s", "period_start": "%s", "period_end": "%s", "line_id": "%s"}\n' "$@"
}
{
	rec modal mod-a 0.10 2026-11-02T10:00:00Z 2026-11-02T11:00:00Z l-a
	rec modal mod-b 0.20 2026-11-03T10:00:00Z 2026-11-03T11:00:00Z l-b
} >bill.jsonl
{
	rec modal mod-a 0.10 2026-11-02T10:00:00Z 2026-11-02T11:00:00Z l-a
	rec modal mod-b 0.25 2026-11-03T10:00:00Z 2026-11-03T11:00:00Z l-b
} >reissued.jsonl
changes() {
	sqlite3 sbledger.db "SELECT change_id, what, COALESCE(backend, '*'), from_ms, to_ms, COALESCE(batch_id, 0) FROM ledger_change ORDER BY change_id"
}
sb init >/dev/null
echo "== a billing file"
sb import billing --format record bill.jsonl
changes
echo "== the same lines again, superseding"
sb import billing --format record --supersede --force --period 2026-11-02..2026-11-04 bill.jsonl
changes
echo "== one amount changed, superseding"
sb import billing --format record --supersede --period 2026-11-02..2026-11-04 reissued.jsonl
changes
echo "== runs"
cp "$SAMPLES/runs.jsonl" runs.jsonl
sb import runs runs.jsonl >/dev/null
sqlite3 sbledger.db "SELECT COUNT(*), MIN(what), MAX(what) FROM ledger_change WHERE batch_id = 4"
echo "== a rate card"
sb rates set modal --usd-per-minute 0.2 --from 2026-11-03 >/dev/null
sqlite3 sbledger.db "SELECT what, backend, from_ms, to_ms FROM ledger_change WHERE batch_id IS NULL"
