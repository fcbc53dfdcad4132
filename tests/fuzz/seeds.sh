#!/bin/sh
# seeds.sh: (re)make the seed corpora of tests/fuzz/corpus/ from the
# samples (examples/samples) and a few hand-written
# edge cases.
#
#   sh tests/fuzz/seeds.sh
#
# Writes corpus/NAME/seed-* for each target, leaving any other file (the
# regress-* inputs that once crashed a target, kept as regression tests)
# alone.  Each target reads its first bytes as options (see its file);
# seeds carry zero bytes there (whole reads, default limits) unless said.
# Run it again when the samples change, and commit the result.

set -eu
LC_ALL=C
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
samples=$(cd "$here/../../examples/samples" && pwd)
corpus=$here/corpus

# seed TARGET NAME: standard input becomes corpus/TARGET/seed-NAME.
seed() {
	mkdir -p "$corpus/$1"
	cat > "$corpus/$1/seed-$2"
}

# options BYTES: print the option bytes (octal escapes) a target reads first.
options() {
	printf "$1"
}

rm -f "$corpus"/*/seed-*

# ---- money: every amount written in the samples, and the edge cases ----
n=0
{
	grep -ohE '"(cost|cost_usd|computed_cost_usd|billed_cost_usd|budget_usd|totalPrice|total_cost)": *"?[-0-9.eE+]+' \
		"$samples"/*.json* | sed 's/.*: *"\{0,1\}//'
	cut -d, -f1,9,10 "$samples/billing-focus.csv" | tail -n +2 | tr ',' '\n'
	printf '%s\n' 0 -0 1.5E-3 2e+2 12. .5 +7 0.0000000005 0.0000000015 0.0000000025 \
		-0.0000000005 9223372036.854775807 -9223372036.854775808 9223372036.854775808 \
		1e-9 1E9 1e10 0.1e-8 100000000000000000000e-20 1e999999999999999999 \
		0.000000000500000000000000000001 5e-10 -5e-10 1.2.3 e5 . - 1e +.e1 NaN Infinity
} | grep -v '^$' | sort -u | while IFS= read -r amount; do
	n=$((n + 1))
	printf '%s' "$amount" | seed money "$(printf '%s' "$amount" | cksum | cut -d' ' -f1)"
done

# ---- timestamp: every timestamp of the samples, with and without naive UTC ----
{
	grep -ohE '[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+(Z|[+-][0-9]{2}:[0-9]{2})?' "$samples"/*
	printf '%s\n' 2026-11-29T02:00:00.125+02:00 2026-11-29t02:00:00z '2026-11-29 02:00:00Z' \
		2026-02-29T00:00:00Z 2024-02-29T23:59:59.999-23:59 2026-13-01T00:00:00Z \
		2026-11-29T24:00:00Z 2026-11-29T23:59:60Z 0000-01-01T00:00:00+23:59 \
		9999-12-31T23:59:59.9999999Z 2026-11-29 2026-11-29T02:00Z
} | sort -u | while IFS= read -r ts; do
	name=$(printf '%s' "$ts" | cksum | cut -d' ' -f1)
	{ options '\000'; printf '%s' "$ts"; } | seed timestamp "$name"
	{ options '\001'; printf '%s' "$ts"; } | seed timestamp "$name-naive"
done

# ---- period: every form of docs/rules.md ----
for p in 2026 2026-11 2026-11-29 2026-11-01..2026-12-01 2026..2027 2026-11..2026-12-15 \
	2026-11-29T02:00:00Z..2026-11-30T00:00:00.5+01:00 today yesterday this-month last-month \
	2026-12..2026-11 2026-02-30 2026-11-29T02:00:00..2026-12-01 .. 2026-11..; do
	{ options '\000\000\000\000'; printf '%s' "$p"; } | seed period "$(printf '%s' "$p" | cksum | cut -d' ' -f1)"
done
{ options '\377\377\377\377'; printf 'last-month'; } | seed period last-month-later

# ---- lines: the JSON Lines samples; CRLF, a BOM, a long line (0xFF c: 40,000 c) ----
{ options '\000\000\000'; cat "$samples/runs.jsonl"; } | seed lines runs
{ options '\000\000\001'; cat "$samples/runs-with-bad-lines.jsonl"; } | seed lines runs-with-bad-lines
{ options '\000\000\000'; cat "$samples/billing-record.jsonl"; } | seed lines billing-record
{ options '\003\000\002'; printf '\357\273\277{"a":1}\r\n\r\n{"b":2}\n\377x\377y\r\n{"c":3}'; } | seed lines bom-crlf-long

# ---- csv: the FOCUS sample, a Modal CSV, quoting and line-end cases ----
{ options '\001\000\000'; cat "$samples/billing-focus.csv"; } | seed csv focus
{ options '\003\007\000'; printf 'Object ID,Description,Environment,Interval Start,Cost,Tags\nmod-1,"sandbox, one",main,2026-11-04T00:00:00,1.019045,{}\n'; } | seed csv modal
{ options '\001\001\010'; printf '\357\273\277a,"b\r\nc",,""\r\n1,"x""y",\r,\n\n"open'; } | seed csv quoting
{ options '\000\000\000'; printf 'x\ry\r\n"q"z,a"b\r'; } | seed csv bad-records

# ---- jsonarray: the JSON array samples, and DeepInfra's object ----
for f in billing-daytona.json billing-e2b-events.json billing-modal.json; do
	{ options '\000\000\000'; cat "$samples/$f"; } | seed jsonarray "${f%.json}"
done
{ options '\001\000\000'; cat "$samples/deepinfra-usage.json"; } | seed jsonarray deepinfra-usage
{ options '\000\003\001'; printf '\357\273\277 [ {"a": "]}\\"["}, [1, [2]], "s", 3.5e1, true, null ]  '; } | seed jsonarray nested
{ options '\001\000\000'; printf '{"initial": {"months": [0]}, "months": [{"period": "2026-11"}], "x": "}"}'; } | seed jsonarray member-skip
{ options '\000\000\000'; printf '[{"a": \377 1}, 2'; } | seed jsonarray long-cut

# ---- runs: each line of the run samples ----
i=0
while IFS= read -r line; do
	i=$((i + 1))
	printf '%s' "$line" | seed runs "runs-$i"
done < "$samples/runs.jsonl"
i=0
while IFS= read -r line; do
	i=$((i + 1))
	printf '%s' "$line" | seed runs "bad-$i"
done < "$samples/runs-with-bad-lines.jsonl"

# ---- billing_FORMAT: each format's sample, whole, and its other shapes ----
{ options '\000'; cat "$samples/billing-record.jsonl"; } | seed billing_record sample
{ options '\000'; cat "$samples/billing-focus.csv"; } | seed billing_focus sample
{ options '\000'; printf '{"BilledCost": "1.5", "BillingCurrency": "eur", "ChargePeriodStart": "2026-11-02T00:00:00Z", "ChargePeriodEnd": "2026-11-03T00:00:00Z", "ProviderName": "Deep Infra", "ChargeCategory": "credit", "ChargeClass": "Correction", "Tags": {"a": 1}, "x_Y": 2}\n'; } | seed billing_focus jsonl
{ options '\000'; cat "$samples/billing-modal.json"; } | seed billing_modal sample
{ options '\001'; printf 'object_id,description,environment,interval_start,resource,cost,tags\nmod-1,"d, e",main,2026-11-04T05:00:00,cpu,0.25,{}\n'; } | seed billing_modal csv-hourly
{ options '\000'; cat "$samples/billing-daytona.json"; } | seed billing_daytona sample
{ options '\000'; cat "$samples/billing-e2b-events.json"; } | seed billing_e2b_events sample
{ options '\000'; printf '{"id": "e1", "type": "sandbox.lifecycle.paused", "sandboxId": "s1", "eventData": {"execution": {"startedAt": "2026-11-04T10:08:25Z", "vcpuCount": 2, "memoryMB": 512, "executionTime": 1000}}}\n'; } | seed billing_e2b_events webhook
{ options '\000'; cat "$samples/deepinfra-usage.json"; } | seed billing_deepinfra_usage sample
