# Tables line up by characters, not bytes: a tag with accents ('Müller',
# 7 bytes for 6 characters) and one in CJK take the width they show; and a
# file name longer than the source column of batches is kept whole
# ('.../' and the name), the column growing instead, while a long path of
# short names is cut from the left at a '/'.  (A CJK character takes two
# columns on a terminal, a combining accent none.)
run() { # run_id customer
	printf '{"run_id":"%s","backend":"modal","started_at":"2026-11-02T10:00:00Z","tags":{"customer":"%s"},"sandbox_usage":{"exec_count":1,"total_duration_ms":60000,"computed_cost_usd":0.01,"executions":[{"command":"x","duration_ms":60000,"cost_usd":0.01}]}}\n' "$1" "$2"
}
CAFE=$(printf 'Cafe\314\201')   # an e and a combining acute accent
{ run r1 acme; run r2 'Müller'; run r3 '東京'; run r6 "$CAFE"; } >short.jsonl
mkdir -p a/very/deep/directory/tree/of/folders
run r5 globex >a/very/deep/directory/tree/of/folders/runs.jsonl
run r4 acme >a/very/deep/directory/tree/of/folders/runs-of-the-whole-month-of-november-2026.jsonl
sb init >/dev/null
sb --quiet import runs short.jsonl a/very/deep/directory/tree/of/folders/runs.jsonl \
	a/very/deep/directory/tree/of/folders/runs-of-the-whole-month-of-november-2026.jsonl
sb report summary --period 2026-11 --by tag:customer
sb batches | sed 's/  [0-9a-f]\{12\}\.\.\..*//'
