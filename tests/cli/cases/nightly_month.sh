# A month of nights (docs/reconcile.md, "The nightly job"): the README's
# crontab line, 'nightly --quiet --fail-on-drift' at 02:15 UTC, run night
# after night with SBLEDGER_NOW walking 2026-11-01..2026-12-10 over
# generated data that arrives in the inbox as a provider's would: each
# night the SDK's runs of the day before and each daily backend's bill of
# it (e2b, modal, blaxel and vercel, as SDK billing records), DeepInfra's bill
# of a month once, two days after the month.  What the nights meet:
#
#   11-01        the first night, on back data from 09-20 (older than
#                --catch-up 35 days: named with the command that judges
#                them, which is then run as printed)
#   11-03 blaxel its bill is late: pending, then unbilled past the billing
#                lag (11-08), then the bill comes (11-12): unbilled -> ok
#   11-05, 11-07 missed nights: the next night judges the days they left
#   11-09 e2b    billed a third over: flagged, acked by finance, then a
#                late run of that day (night 11-13) moves its figures and
#                the flag reopens; waived, it is mailed no more
#   11-15..21    a week off: night 11-22 judges the week
#   11-20 modal  billed 30% over: flagged, disputed; the provider reissues
#                the bill and finance imports it with --supersede: the day
#                is judged again, ok, the flag resolved by that batch
#   DeepInfra    billed by the month: never judged on a day; October
#                judged on 11-04, November (billed a fifth over) on 12-04,
#                then disputed: listed with the amount in dispute
#   12-06        someone adds --fetch deepinfra without its key, on a night
#                with a rejected run and an over-billed backend: exit 64,
#                each fault named once
#
# Each night prints its mail, then the night, its exit status and what
# heartbeat.json says (periods judged, of them for the first time, open
# flags).  On PostgreSQL the same walk runs (the runner's mode).
python3 - <<'PY' || exit 1
import datetime as dt, json, os

def day(s):
    return dt.date.fromisoformat(s)

card = {"e2b": 0.06, "modal": 0.10, "blaxel": 0.09, "vercel": 0.12, "deepinfra": 0.10}
minutes = 10
def usd(x):
    return round(x, 9)

def arrive(night, sub, name, text):
    d = os.path.join("arrivals", night.isoformat(), sub)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "a") as f:
        f.write(text)

def run(backend, d, n, start="10:00:00", mins=minutes, session=None):
    s = session or "%s-%s" % (backend[:3], d.strftime("%m%d"))
    t0 = dt.datetime.fromisoformat("%sT%s" % (d.isoformat(), start))
    t1 = t0 + dt.timedelta(minutes=mins)
    ms = mins * 60000
    return json.dumps({"run_id": "%s-%s-%d" % (backend, d.isoformat(), n), "backend": backend,
                       "session_id": s, "started_at": t0.isoformat() + "Z", "ended_at": t1.isoformat() + "Z",
                       "tags": {"customer": "acme"},
                       "sandbox_usage": {"exec_count": 1, "total_duration_ms": ms,
                                         "computed_cost_usd": usd(card[backend] * mins),
                                         "executions": [{"command": "pytest -q", "exit_code": 0,
                                                         "duration_ms": ms, "cost_usd": usd(card[backend] * mins)}]}})

def bill(backend, d, cost):
    s = "%s-%s" % (backend[:3], d.strftime("%m%d"))
    return json.dumps({"backend": backend, "session_id": s, "cost_usd": cost, "currency": "USD",
                       "unit": "s", "period_start": "%sT10:00:00Z" % d.isoformat(),
                       "period_end": "%sT10:%02d:00Z" % (d.isoformat(), minutes),
                       "line_id": "%s-%s" % (s, d.isoformat())}) + "\n"

first_night = day("2026-11-01")
d = day("2026-09-20")
deepinfra_month = {}
while d <= day("2026-12-09"):
    night = max(d + dt.timedelta(days=1), first_night)
    runs = [run(b, d, 0) for b in ("e2b", "modal", "blaxel", "vercel")]
    if d >= day("2026-10-01"):
        runs.append(run("deepinfra", d, 0))
        m = d.strftime("%Y-%m")
        deepinfra_month[m] = deepinfra_month.get(m, 0) + round(card["deepinfra"] * minutes * 100)
    if d == day("2026-12-05"):
        runs.insert(2, '{"run_id": "e2b-2026-12-05-9", "backend": "e2b", "started_at": "2026-12-05T25:00:00Z"}')
    arrive(night, "runs", "runs-%s.jsonl" % d.isoformat(), "".join(r + "\n" for r in runs))
    for b in ("e2b", "modal", "blaxel", "vercel"):
        cost = usd(card[b] * minutes)
        if (b, d.isoformat()) in (("e2b", "2026-11-09"), ("e2b", "2026-12-05")):
            cost = usd(cost * 4 / 3)
        if (b, d.isoformat()) == ("modal", "2026-11-20"):
            cost = usd(cost * 1.3)
        if (b, d.isoformat()) == ("blaxel", "2026-11-03"):
            arrive(day("2026-11-12"), "billing/record", "blaxel-late-2026-11-03.jsonl", bill(b, d, cost))
            continue
        arrive(night, "billing/record", "bill-%s.jsonl" % d.isoformat(), bill(b, d, cost))
    d += dt.timedelta(days=1)

# the late run of 11-09: a second run of that e2b session, one minute
arrive(day("2026-11-13"), "runs", "late-2026-11-09.jsonl",
       run("e2b", day("2026-11-09"), 1, start="10:20:00", mins=1, session="e2b-1109") + "\n")
# DeepInfra: a month's total in cents, two days after the month; November a fifth over
arrive(day("2026-11-02"), "billing/deepinfra-usage", "usage-2026-10.json",
       json.dumps({"initial_month": "2026-10", "months": [{"period": "2026-10", "total_cost": deepinfra_month["2026-10"]}]}))
arrive(day("2026-12-02"), "billing/deepinfra-usage", "usage-2026-11.json",
       json.dumps({"initial_month": "2026-10", "months": [{"period": "2026-11", "total_cost": deepinfra_month["2026-11"] * 6 // 5}]}))
# modal's reissue of 11-20, at the card
os.makedirs("reissue", exist_ok=True)
with open("reissue/modal-2026-11-20.jsonl", "w") as f:
    f.write(bill("modal", day("2026-11-20"), 1.0))
PY
ln -s "$(command -v "$SB")" ./sbledger
./sbledger --db ledger.db init >/dev/null
./sbledger --db ledger.db rates set deepinfra --usd-per-minute 0.10 --from 2026-01-01 >/dev/null
for f in record deepinfra-usage; do mkdir -p inbox/billing/$f; done
mkdir -p inbox/runs

# flag ID BACKEND DAY: the flags of BACKEND's period starting on DAY
flag_ids() {
	sqlite3 ledger.db "SELECT flag_id FROM flag WHERE backend = '$1' AND from_ms = $(date -u -d "$2" +%s)000 ORDER BY flag_id"
}
handle() { # ACTION BACKEND DAY REASON
	for id in $(flag_ids "$2" "$3"); do
		./sbledger --db ledger.db flags "$1" "$id" --reason "$4" --who finance >/dev/null || echo "flags $1 $id failed"
	done
}
night() { # DAY [OPTION...]
	n=$1
	shift
	echo "==== night $n"
	SBLEDGER_NOW=${n}T02:15:00Z ./sbledger --db ledger.db --quiet nightly --inbox inbox --out reports \
		--fail-on-drift "$@" >mail.txt 2>&1
	s=$?
	sed "s|$(pwd)/|/srv/sbledger/|g" mail.txt
	python3 - "$n" "$s" <<'PY'
import json, re, sys
night, status = sys.argv[1:]
h = json.load(open("reports/heartbeat.json"))
mail = open("mail.txt").read().splitlines()
def count(pattern):
    return sum(1 for line in mail if re.search(pattern, line))
said = [("moved", "moved", r"^[0-9-]+ [a-z0-9-]+: \S+ -> "), ("new flag", "new flags", r"^flag .*\(new\)$"),
        ("reopened", "reopened", r"^flag .*\(reopened"), ("still open", "still open", r"^flag [^(]*$"),
        ("rejected file", "rejected files", r"lines? rejected; see"),
        ("fetch skipped", "fetches skipped", r"_KEY is not set"),
        ("older range named", "older ranges named", r"^not judged: ")]
words = ", ".join("%d %s" % (count(p), one if count(p) == 1 else many) for one, many, p in said if count(p)) or "nothing"
print("night %s: exit %s, %d mailed lines, %d periods judged (%d for the first time), %d open flags"
      % (night, status, len(mail), h["periods_judged"], h["first_time"], h["open_flags"]))
with open("table.md", "a") as t:
    t.write("| %s | %d | %d | %d | %s | %s |\n" % (night, h["first_time"], h["periods_judged"] - h["first_time"],
                                              len(mail), status, words))
PY
}

n=2026-11-01
while [ "$n" != 2026-12-11 ]; do
	[ -d "arrivals/$n" ] && cp -R "arrivals/$n/." inbox/
	case $n in
	2026-11-05 | 2026-11-07 | 2026-11-1[5-9] | 2026-11-2[01])
		echo "==== night $n: not run"
		echo "| $n | | | | | not run |" >>table.md
		;;
	2026-12-06) DEEPINFRA_API_KEY= night "$n" --fetch deepinfra ;;
	*) night "$n" ;;
	esac
	case $n in
	2026-11-01)
		echo "-- the command the mail names, run as printed"
		cmd=$(sed -n 's/^judge them: //p' mail.txt)
		echo "$cmd" | sed "s|$(pwd)/|/srv/sbledger/|g"
		SBLEDGER_NOW=2026-11-01T09:00:00Z sh -c "$cmd" >hint.txt 2>&1
		echo "exit $?: $(grep -c " judged for the first time:" hint.txt) days judged for the first time"
		;;
	2026-11-10) echo "-- finance acks e2b 2026-11-09"; handle ack e2b 2026-11-09 "asked e2b support" ;;
	2026-11-14) echo "-- finance waives e2b 2026-11-09"; handle waive e2b 2026-11-09 "the late run explains part; accepted" ;;
	2026-11-22) echo "-- finance disputes modal 2026-11-20"; handle dispute modal 2026-11-20 "billed 30% over the card" ;;
	2026-11-23)
		echo "-- modal reissues its bill of 2026-11-20; finance imports it"
		SBLEDGER_NOW=2026-11-23T15:00:00Z ./sbledger --db ledger.db import billing --format record --supersede \
			--period 2026-11-20 reissue/modal-2026-11-20.jsonl
		;;
	2026-12-04) echo "-- finance disputes deepinfra 2026-11"; handle dispute deepinfra 2026-11-01 "a fifth over the card" ;;
	esac
	n=$(date -u -d "$n + 1 day" +%F)
done
# the README's month of nights is this walk's table
awk '/^\| night \| days judged/ { on = 1; getline; next } on && !/^\|/ { exit } on' "$REPO/README.md" >readme.md
if [ -s readme.md ] && diff readme.md table.md; then
	echo "the README's month of nights matches ($(wc -l <table.md | tr -d ' ') nights)"
else
	echo "the README's month of nights differs from the walk (above)"
fi
echo "==== the flags at the end"
SBLEDGER_NOW=2026-12-10T12:00:00Z ./sbledger --db ledger.db flags --all | sed 's/  */ /g'
./sbledger --db ledger.db check | grep -v '^ok '
