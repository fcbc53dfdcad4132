# A FOCUS 1.0-shaped file of 300 generated rows with the traits of the
# FinOps Foundation's sample (tests/gen_focus_sample.py: quoted names,
# unquoted NULL, naive times, 11-decimal amounts, half-nanodollar ties,
# repeated rows) imports whole, and each provider's billed total equals the
# generator's own sum of the rows rounded half to even (Python decimal).
python3 "$REPO/tests/gen_focus_sample.py" sample.csv 300 >expected.txt
echo "== expected (gen_focus_sample.py)"
cat expected.txt
sb init >/dev/null
sb import billing --format focus sample.csv
echo "== billed per backend (reconcile)"
"$SB" reconcile --period 2024-09 --format json >recon.json
python3 - <<'PY' >got.txt
import json
for b in json.load(open("recon.json"))["backends"]:
    print(b["backend"], b["billed_cost_usd"])
PY
cat got.txt
if cmp -s expected.txt got.txt; then echo "totals equal"; else echo "TOTALS DIFFER"; fi
echo "== no session, category or tag called NULL"
"$SB" lines --period 2024-09 --format csv | grep -c 'NULL'
sb check
