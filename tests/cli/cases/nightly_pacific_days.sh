# nightly over Vercel-shaped bills (FOCUS JSON Lines from the charges API:
# numbers as JSON numbers, days from 08:00Z to 08:00Z, a line of no length
# at a day's first instant) on eight simulated nights at 02:15Z, each
# reconciling yesterday (UTC).  Each Pacific day is judged over its own
# window [D 08:00Z, D+1 08:00Z), its runs too (a run at 03:00Z belongs to
# the Pacific day before): `pending` the night its window is still open,
# a verdict the night after, exactly once.  The bill of Pacific 2027-01-14
# never comes: unbilled, not flagged while the window ended less than the
# billing lag (24 h here) ago, flagged once after.  blaxel (no lines: UTC
# days) is unbilled and flagged once the lag passed.  Pacific 2027-01-09,
# before the first night, is judged the first night its successor ended
# more than the lag ago.
#
# Figures (computed = the runs' computed_cost_usd; billed = the lines):
#   Pacific 01-09: run 0.03; lines 0.03                         ok
#   Pacific 01-10: run 0.04; lines 0.03 + 0.01 = 0.04           ok
#   Pacific 01-11: runs 0.10 (15:00Z) + 0.05 (01-12 03:00Z) = 0.15;
#                  lines 0.10 + 0.05 = 0.15                     ok
#   Pacific 01-12: run 0.20 (20:00Z); lines 0.25 + 0.05 = 0.30: drift 0.10
#                  > max(0.01, 0.05 x 0.20 = 0.01): over_billed; the run
#                  lived its 100 s of commands, so the lifetime at the card
#                  (0.12/min: 0.20) does not explain it; 0.30 / (100/60 min)
#                  = 0.18/min, 0.06 (50%) above the card: rate
#   Pacific 01-13: run 0.08; lines 0.06 + 0.02 (no length) = 0.08  ok
#   Pacific 01-14: run 0.12; no line                           unbilled
#   blaxel, UTC 01-10: run 0.09; no line                       unbilled
mkdir -p inbox/runs inbox/billing/focus
sb init >/dev/null
# night DATE TIME FILE...: what arrived since the night before, then the job
night() {
	SBLEDGER_NOW=$1
	export SBLEDGER_NOW
	shift
	for f in "$@"; do
		case $f in
		runs-*) cp "$FIX/pacific/$f" inbox/runs/ ;;
		*) cp "$FIX/pacific/$f" inbox/billing/focus/ ;;
		esac
	done
	echo "== night $SBLEDGER_NOW"
	sb nightly --inbox inbox --out reports --billing-lag 24h --fail-on-drift | sed "s|$PWD/||g"
}
night 2027-01-11T02:15:00Z runs-2027-01-09.jsonl runs-2027-01-10.jsonl vercel-2027-01-09.jsonl
night 2027-01-12T02:15:00Z runs-2027-01-11.jsonl vercel-2027-01-10.jsonl
night 2027-01-13T02:15:00Z runs-2027-01-12.jsonl vercel-2027-01-11.jsonl
night 2027-01-14T02:15:00Z runs-2027-01-13.jsonl vercel-2027-01-12.jsonl
night 2027-01-15T02:15:00Z runs-2027-01-14.jsonl vercel-2027-01-13.jsonl
night 2027-01-16T02:15:00Z
night 2027-01-17T02:15:00Z
echo "== night 2027-01-18T02:15:00Z, --quiet: nothing to say"
SBLEDGER_NOW=2027-01-18T02:15:00Z sb --quiet nightly --inbox inbox --out reports --billing-lag 24h --fail-on-drift
echo "== every stored judgement of vercel and blaxel: one verdict per day, after its pending"
# (the times are stored as milliseconds; written here in UTC as SQLite's
# strftime of the whole seconds would: plain SQL that both engines run)
sqlite3 sbledger.db "SELECT c.from_ms, b.backend, b.window_from_ms, b.window_to_ms, b.status, b.flagged, c.judged_ms
	FROM reconciliation_backend b JOIN reconciliation c USING (recon_id)
	ORDER BY b.backend, c.from_ms, c.recon_id" | python3 -c '
import datetime, sys
def utc(ms, fmt):
    if ms == "":
        return ""
    ms = int(ms)
    seconds = abs(ms) // 1000 * (1 if ms >= 0 else -1)
    return (datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=seconds)).strftime(fmt)
for line in sys.stdin:
    from_ms, backend, wfrom, wto, status, flagged, judged = line.rstrip("\n").split("|")
    window = utc(wfrom, "%Y-%m-%dT%H:%M") + ".." + utc(wto, "%Y-%m-%dT%H:%M") if wfrom and wto else ""
    print("|".join((utc(from_ms, "%Y-%m-%d"), backend, window, status, flagged, utc(judged, "%m-%dT%H:%M"))))
'
echo "== the window's report: Pacific 2027-01-12 as stored in its reports"
python3 -c '
import json, sys
d = json.load(open("reports/2027-01-12/reconcile.json"))
for b in d["backends"]:
    print(b["backend"], b["status"], b["flagged"], b["window"]["from"], b["window"]["to"],
          b["computed_cost_usd"], b["billed_cost_usd"], b["explain"]["verdict"])
print("flagged", d["flagged"], d["flagged_backends"], d["flagged_sessions"])'
