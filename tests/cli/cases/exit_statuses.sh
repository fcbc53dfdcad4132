# Exit statuses a script can act on.
#
# A closed pipe: 'sbledger lines ... | head -c 1' ends sbledger quietly by
# SIGPIPE, as it ends git: status 141 in a shell, nothing on stderr, both
# for a listing written as it goes (json) and for a table written at the
# end; each writes more than 1 MiB when nothing closes it.
#
# A batch asked for that does not exist: 'rejects --batch N' and 'lines
# --batch N' exit 65 naming it, at the newest batch + 1 and beyond, in a
# ledger with batches and in one without; the newest batch itself lists.
sb init >/dev/null
sb rejects --batch 1
sb lines --period 2026-11 --batch 1
awk 'BEGIN { for (i = 0; i < 12000; i++)
	printf "{\"backend\": \"modal\", \"session_id\": \"mod-%06d\", \"cost_usd\": 0.001, \"period_start\": \"2026-11-02T10:00:00Z\", \"period_end\": \"2026-11-02T10:05:00Z\", \"line_id\": \"line-%06d\"}\n", i, i }' >lines.jsonl
sb import billing --format record lines.jsonl
printf '{"run_id": "x"}\n' >bad.jsonl
sb import runs bad.jsonl
for fmt in json table; do
	bytes=$("$SB" lines --period 2026-11 --format $fmt | wc -c)
	[ "$bytes" -gt 1048576 ] && echo "lines --format $fmt writes more than 1 MiB ($bytes bytes)"
	{ "$SB" lines --period 2026-11 --format $fmt 2>stderr.txt; echo $? >status.txt; } | head -c 1 >/dev/null
	echo "lines --format $fmt | head -c 1: exit $(cat status.txt), stderr: $(wc -c <stderr.txt | tr -d ' ') bytes"
done
# the batches that do exist, and the first that does not
sb rejects --batch 2
sb rejects --batch 3
sb rejects --batch 99 --format json
echo "lines --batch 1: $("$SB" lines --period 2026-11 --batch 1 --format csv | wc -l | tr -d ' ') csv lines"
sb lines --period 2026-11 --batch 2
sb lines --period 2026-11 --batch 3
sb lines --period 2026-11 --batch 99
