# Output that cannot be written (a full disk) exits 74.
cp "$SAMPLES/runs.jsonl" runs.jsonl
sb init >/dev/null
sb import runs runs.jsonl >/dev/null
for cmd in batches rejects rates backends prices "rates --format json" "report summary --period 2026-11" "report summary --period 2026-11 --format json" "check" "--help"; do
	"$SB" $cmd >/dev/full 2>err
	echo "$cmd: exit $?"
	cat err
done
# a closed standard output is an error too, not a success
"$SB" report summary --period 2026-11 >&-
echo "closed stdout: exit $?"
