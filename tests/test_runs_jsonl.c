/* test_runs_jsonl.c: the run-usage record parser (importers/runs_jsonl.c):
 * every rule of docs/formats-runs.md with a line that breaks it, what a
 * valid record becomes, the SDK class names, unknown fields, and the
 * fingerprint that tells a duplicate from a conflict. */
#include "tests/support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/runs_jsonl.h"

/* The example record of docs/formats-runs.md. */
#define EXAMPLE                                                                        \
	"{\"run_id\": \"run_7f3a\", \"backend\": \"e2b\", \"session_id\": \"sbx-91c2\", "  \
	"\"plan\": null, \"started_at\": \"2026-11-29T02:00:00Z\", "                       \
	"\"ended_at\": \"2026-11-29T02:08:13Z\", "                                          \
	"\"tags\": {\"customer\": \"acme\", \"team\": \"search\"}, "                        \
	"\"token_usage\": {\"model\": \"gpt-5.6-terra\", \"input_tokens\": 12000, "         \
	"\"output_tokens\": 3000}, \"budget_usd\": 0.50, "                                  \
	"\"sandbox_usage\": {\"exec_count\": 2, \"total_duration_ms\": 1500, "              \
	"\"cpu_ms\": 900, \"memory_peak_mb\": 512, \"bytes_read\": 0, "                     \
	"\"bytes_written\": 4096, \"computed_cost_usd\": 0.0015, \"billed_cost_usd\": null, " \
	"\"executions\": ["                                                                 \
	"{\"command\": \"pytest -q\", \"exit_code\": 0, \"duration_ms\": 1000, "            \
	"\"cpu_ms\": 600, \"memory_peak_mb\": 512, \"bytes_read\": 0, "                     \
	"\"bytes_written\": 4096, \"cost_usd\": 0.001}, "                                   \
	"{\"command\": \"ls\", \"exit_code\": 0, \"duration_ms\": 500, \"cpu_ms\": 300, "   \
	"\"memory_peak_mb\": 128, \"bytes_read\": 0, \"bytes_written\": 0, "                \
	"\"cost_usd\": 0.0005}]}}"

/* The head of a minimal valid record, to which a test appends the rest. */
#define HEAD "{\"run_id\": \"r\", \"backend\": \"e2b\", \"started_at\": \"2026-11-29T02:00:00Z\", "

/* Group fixture: one parser for every test, as an import uses one. */
static int parser_setup(void **state)
{
	*state = sb_run_parser_new();
	return *state != NULL ? 0 : -1;
}

static int parser_teardown(void **state)
{
	sb_run_parser_free(*state);
	return 0;
}

/* Parse text with p, failing at file:line unless it is accepted. */
static void parse_ok_at(sb_run_parser *p, const char *text, sb_run *run, const char *file, int line)
{
	sb_err e;
	int rc;

	sb_err_clear(&e);
	rc = sb_run_parse(p, text, strlen(text), run, &e);
	if (rc != SB_OK || e.code != SB_OK) {
		print_error("rejected: %s\n  %s\n", e.msg, text);
		_fail(file, line);
	}
}
#define parse_ok(p, text, run) parse_ok_at((p), (text), (run), __FILE__, __LINE__)

/* The fingerprint of text, parsed with p (must be accepted). */
static void fingerprint_of(sb_run_parser *p, const char *text, char out[65])
{
	sb_run run;

	parse_ok(p, text, &run);
	assert_int_equal(strlen(run.fingerprint), 64);
	memcpy(out, run.fingerprint, 65);
}

/* ---- the rules: each line breaks one and must be rejected with a reason
 * naming the field */

struct rule {
	const char *name;     /* what the line breaks */
	const char *line;     /* the record */
	const char *reason;   /* part of the expected reason */
};

/* A partly detailed record: the SDK's __add__ of a summary-only usage
 * (exec_count 2, total_duration_ms 3000, cpu_ms 100, bytes_read 10,
 * bytes_written 20, memory_peak_mb 256, computed 0.003) and a detailed
 * one of two executions, listed.  The record's aggregates are the sums:
 * exec_count 4, total_duration_ms 3500, cpu_ms 150, bytes_read 15,
 * bytes_written 27, memory_peak_mb 512, computed 0.0035.  PART(...) lists
 * two executions: "a", all 0 (memory 128, cost 0.0), and "b" with the
 * given duration, cpu, read, written, memory peak and cost, so the given
 * values are what the listed executions add up to.  The SDK's own case is
 * PART("500", "50", "5", "7", "512", "0.0005"); PART("3500", "150", "15",
 * "27", "512", "0.0035") lists exactly the aggregates. */
#define PART(dur, cpu, rd, wr, mem, cost)                                                     \
	HEAD "\"sandbox_usage\": {\"exec_count\": 4, \"total_duration_ms\": 3500, \"cpu_ms\": 150, "   \
	"\"memory_peak_mb\": 512, \"bytes_read\": 15, \"bytes_written\": 27, "                        \
	"\"computed_cost_usd\": 0.0035, \"billed_cost_usd\": null, \"executions\": ["                \
	"{\"command\": \"a\", \"exit_code\": 0, \"duration_ms\": 0, \"cpu_ms\": 0, "                  \
	"\"memory_peak_mb\": 128, \"bytes_read\": 0, \"bytes_written\": 0, \"cost_usd\": 0.0}, "       \
	"{\"command\": \"b\", \"exit_code\": 0, \"duration_ms\": " dur ", \"cpu_ms\": " cpu ", "      \
	"\"memory_peak_mb\": " mem ", \"bytes_read\": " rd ", \"bytes_written\": " wr ", "             \
	"\"cost_usd\": " cost "}]}}"

/* 257 and 256 bytes of run_id. */
#define X16 "xxxxxxxxxxxxxxxx"
#define X256 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16
#define X65 X16 X16 X16 X16 "x"

static const struct rule rules[] = {
	/* not a record */
	{"not JSON", "{\"run_id\": \"r\", ", "not valid JSON"},
	{"not JSON at all", "run_id=r backend=e2b", "not valid JSON"},
	{"an array", "[1, 2, 3]", "not a JSON object"},
	{"a string", "\"run\"", "not a JSON object but a string (one run record per line)"},
	{"duplicate key", HEAD "\"sandbox_usage\": {}, \"run_id\": \"s\"}", "not valid JSON: duplicate key 'run_id'"},
	/* required fields */
	{"missing run_id", "{\"backend\": \"e2b\", \"started_at\": \"2026-11-29T02:00:00Z\", \"sandbox_usage\": {}}",
	 "run_id is missing"},
	{"null run_id", "{\"run_id\": null, \"backend\": \"e2b\", \"started_at\": \"2026-11-29T02:00:00Z\", \"sandbox_usage\": {}}",
	 "run_id is missing"},
	{"missing backend", "{\"run_id\": \"r\", \"started_at\": \"2026-11-29T02:00:00Z\", \"sandbox_usage\": {}}",
	 "backend is missing"},
	{"missing started_at", "{\"run_id\": \"r\", \"backend\": \"e2b\", \"sandbox_usage\": {}}",
	 "started_at is missing"},
	{"missing sandbox_usage", HEAD "\"ended_at\": null}", "sandbox_usage is missing"},
	/* wrong types */
	{"run_id a number", "{\"run_id\": 7, \"backend\": \"e2b\", \"started_at\": \"2026-11-29T02:00:00Z\", \"sandbox_usage\": {}}",
	 "run_id must be a string, not an integer"},
	{"backend an object", "{\"run_id\": \"r\", \"backend\": {}, \"started_at\": \"2026-11-29T02:00:00Z\", \"sandbox_usage\": {}}",
	 "backend must be a string, not an object"},
	{"started_at a boolean", "{\"run_id\": \"r\", \"backend\": \"e2b\", \"started_at\": true, \"sandbox_usage\": {}}",
	 "started_at must be an RFC 3339 string or a number of Unix seconds, not a boolean"},
	{"ended_at an object", HEAD "\"ended_at\": {\"s\": 1}, \"sandbox_usage\": {}}",
	 "ended_at must be an RFC 3339 string or a number of Unix seconds, not an object"},
	{"sandbox_usage an array", HEAD "\"sandbox_usage\": []}", "sandbox_usage must be an object, not an array"},
	{"sandbox_usage a string", HEAD "\"sandbox_usage\": \"none\"}", "sandbox_usage must be an object, not a string"},
	{"session_id a number", HEAD "\"session_id\": 5, \"sandbox_usage\": {}}", "session_id must be a string"},
	{"plan a boolean", HEAD "\"plan\": true, \"sandbox_usage\": {}}", "plan must be a string, not a boolean"},
	{"tags an array", HEAD "\"tags\": [\"a\"], \"sandbox_usage\": {}}", "tags must be an object"},
	{"tag an object", HEAD "\"tags\": {\"a\": {}}, \"sandbox_usage\": {}}", "tags.a must be a string"},
	{"token_usage a string", HEAD "\"token_usage\": \"many\", \"sandbox_usage\": {}}", "token_usage must be an object"},
	{"model a number", HEAD "\"token_usage\": {\"model\": 5}, \"sandbox_usage\": {}}", "token_usage.model must be a string"},
	{"exec_count a string", HEAD "\"sandbox_usage\": {\"exec_count\": \"2\"}}",
	 "sandbox_usage.exec_count must be a non-negative integer, not a string"},
	{"cpu_ms null", HEAD "\"sandbox_usage\": {\"cpu_ms\": null}}", "sandbox_usage.cpu_ms must be a non-negative integer"},
	{"computed_cost_usd a string", HEAD "\"sandbox_usage\": {\"computed_cost_usd\": \"0.1\"}}",
	 "sandbox_usage.computed_cost_usd must be a number, not a string"},
	{"computed_cost_usd null", HEAD "\"sandbox_usage\": {\"computed_cost_usd\": null}}",
	 "sandbox_usage.computed_cost_usd must be a number, not null"},
	{"budget_usd a string", HEAD "\"budget_usd\": \"0.5\", \"sandbox_usage\": {}}", "budget_usd must be a number"},
	{"executions an object", HEAD "\"sandbox_usage\": {\"exec_count\": 1, \"executions\": {}}}",
	 "sandbox_usage.executions must be an array"},
	{"execution a number", HEAD "\"sandbox_usage\": {\"exec_count\": 1, \"executions\": [5]}}",
	 "sandbox_usage.executions[0] must be an object"},
	{"command a number", HEAD "\"sandbox_usage\": {\"exec_count\": 1, \"executions\": [{\"command\": 5}]}}",
	 "sandbox_usage.executions[0].command must be a string"},
	{"exit_code a fraction", HEAD "\"sandbox_usage\": {\"exec_count\": 1, \"executions\": [{\"exit_code\": 1.5}]}}",
	 "sandbox_usage.executions[0].exit_code must be an integer"},
	/* run_id and backend */
	{"run_id empty", "{\"run_id\": \"\", \"backend\": \"e2b\", \"started_at\": \"2026-11-29T02:00:00Z\", \"sandbox_usage\": {}}",
	 "run_id is empty"},
	{"run_id 257 bytes", "{\"run_id\": \"" X256 "y\", \"backend\": \"e2b\", \"started_at\": \"2026-11-29T02:00:00Z\", \"sandbox_usage\": {}}",
	 "run_id is 257 bytes long, more than 256"},
	{"run_id with NUL", "{\"run_id\": \"a\\u0000b\", \"backend\": \"e2b\", \"started_at\": \"2026-11-29T02:00:00Z\", \"sandbox_usage\": {}}",
	 "not valid JSON: \\u0000 is not allowed"},
	{"backend upper case", "{\"run_id\": \"r\", \"backend\": \"E2B\", \"started_at\": \"2026-11-29T02:00:00Z\", \"sandbox_usage\": {}}",
	 "backend 'E2B' is not a backend id"},
	{"backend with a space", "{\"run_id\": \"r\", \"backend\": \"my cloud\", \"started_at\": \"2026-11-29T02:00:00Z\", \"sandbox_usage\": {}}",
	 "backend 'my cloud' is not a backend id"},
	{"backend a class we do not know", "{\"run_id\": \"r\", \"backend\": \"AcmeSandboxClient\", \"started_at\": \"2026-11-29T02:00:00Z\", \"sandbox_usage\": {}}",
	 "backend 'AcmeSandboxClient' is not a backend id"},
	{"backend 65 bytes", "{\"run_id\": \"r\", \"backend\": \"" X65 "\", \"started_at\": \"2026-11-29T02:00:00Z\", \"sandbox_usage\": {}}",
	 "backend is 65 bytes long"},
	{"backend empty", "{\"run_id\": \"r\", \"backend\": \"\", \"started_at\": \"2026-11-29T02:00:00Z\", \"sandbox_usage\": {}}",
	 "backend is empty"},
	/* negative counters and amounts */
	{"negative exec_count", HEAD "\"sandbox_usage\": {\"exec_count\": -1}}", "sandbox_usage.exec_count is negative"},
	{"negative total_duration_ms, nothing listed", HEAD "\"sandbox_usage\": {\"total_duration_ms\": -5}}",
	 "sandbox_usage.total_duration_ms is negative (-5) and no executions are listed"},
	{"negative total_duration_ms, summary-only", HEAD "\"sandbox_usage\": {\"exec_count\": 3, \"total_duration_ms\": -1}}",
	 "sandbox_usage.total_duration_ms is negative (-1) and no executions are listed"},
	{"negative cpu_ms", HEAD "\"sandbox_usage\": {\"cpu_ms\": -1}}", "sandbox_usage.cpu_ms is negative"},
	{"negative memory_peak_mb", HEAD "\"sandbox_usage\": {\"memory_peak_mb\": -1}}", "sandbox_usage.memory_peak_mb is negative"},
	{"negative bytes_read", HEAD "\"sandbox_usage\": {\"bytes_read\": -1}}", "sandbox_usage.bytes_read is negative"},
	{"negative bytes_written", HEAD "\"sandbox_usage\": {\"bytes_written\": -1}}", "sandbox_usage.bytes_written is negative"},
	{"negative input_tokens", HEAD "\"token_usage\": {\"input_tokens\": -1}, \"sandbox_usage\": {}}",
	 "token_usage.input_tokens is negative"},
	{"negative execution cpu_ms", HEAD "\"sandbox_usage\": {\"exec_count\": 1, \"executions\": [{\"cpu_ms\": -1}]}}",
	 "sandbox_usage.executions[0].cpu_ms is negative (-1)"},
	{"negative execution memory", HEAD "\"sandbox_usage\": {\"exec_count\": 1, \"executions\": [{\"memory_peak_mb\": -1}]}}",
	 "sandbox_usage.executions[0].memory_peak_mb is negative (-1)"},
	{"negative execution bytes_written", HEAD "\"sandbox_usage\": {\"exec_count\": 1, \"executions\": [{\"bytes_written\": -1}]}}",
	 "sandbox_usage.executions[0].bytes_written is negative (-1)"},
	/* durations may be negative (clock skew), but whole and numbers */
	{"fractional negative duration", HEAD "\"sandbox_usage\": {\"exec_count\": 1, \"total_duration_ms\": -1, "
	 "\"executions\": [{\"duration_ms\": -1.5}]}}", "sandbox_usage.executions[0].duration_ms must be a whole number written as an integer (no fraction, no exponent), not -1.5"},
	{"duration a string", HEAD "\"sandbox_usage\": {\"exec_count\": 1, \"executions\": [{\"duration_ms\": \"-1\"}]}}",
	 "sandbox_usage.executions[0].duration_ms must be an integer, not a string"},
	{"total_duration_ms null", HEAD "\"sandbox_usage\": {\"total_duration_ms\": null}}",
	 "sandbox_usage.total_duration_ms must be an integer, not null"},
	/* a negative duration is kept only as given: the total is still their sum */
	{"negative durations, total not their sum", HEAD "\"sandbox_usage\": {\"exec_count\": 2, \"total_duration_ms\": 0, "
	 "\"executions\": [{\"duration_ms\": -1}, {\"duration_ms\": 0}]}}",
	 "sandbox_usage.total_duration_ms is 0 but the executions' durations add up to -1"},
	{"negative durations, total clamped", HEAD "\"sandbox_usage\": {\"exec_count\": 2, \"total_duration_ms\": 1000, "
	 "\"executions\": [{\"duration_ms\": -5}, {\"duration_ms\": 1000}]}}",
	 "sandbox_usage.total_duration_ms is 1000 but the executions' durations add up to 995"},
	{"negative computed_cost_usd", HEAD "\"sandbox_usage\": {\"computed_cost_usd\": -0.5}}",
	 "sandbox_usage.computed_cost_usd is negative"},
	{"negative billed_cost_usd", HEAD "\"sandbox_usage\": {\"billed_cost_usd\": -1}}",
	 "sandbox_usage.billed_cost_usd is negative"},
	{"negative budget_usd", HEAD "\"budget_usd\": -0.01, \"sandbox_usage\": {}}", "budget_usd is negative"},
	{"negative cost_usd", HEAD "\"sandbox_usage\": {\"exec_count\": 1, \"executions\": [{\"cost_usd\": -0.001}]}}",
	 "sandbox_usage.executions[0].cost_usd is negative"},
	/* fractional counters */
	{"fractional cpu_ms", HEAD "\"sandbox_usage\": {\"cpu_ms\": 1.5}}", "sandbox_usage.cpu_ms must be a whole number"},
	{"fractional exec_count", HEAD "\"sandbox_usage\": {\"exec_count\": 0.5}}", "sandbox_usage.exec_count must be a whole number"},
	{"fractional output_tokens", HEAD "\"token_usage\": {\"output_tokens\": 2.25}, \"sandbox_usage\": {}}",
	 "token_usage.output_tokens must be a whole number"},
	{"fractional execution memory", HEAD "\"sandbox_usage\": {\"exec_count\": 1, \"executions\": [{\"memory_peak_mb\": 0.5}]}}",
	 "sandbox_usage.executions[0].memory_peak_mb must be a whole number"},
	/* NaN, infinities and numbers past double: jansson refuses them */
	{"NaN", HEAD "\"sandbox_usage\": {\"computed_cost_usd\": NaN}}", "not valid JSON"},
	{"Infinity", HEAD "\"sandbox_usage\": {\"computed_cost_usd\": Infinity}}", "not valid JSON"},
	{"-Infinity", HEAD "\"sandbox_usage\": {\"cpu_ms\": -Infinity}}", "not valid JSON"},
	{"1e400", HEAD "\"sandbox_usage\": {\"computed_cost_usd\": 1e400}}", "sandbox_usage.computed_cost_usd is too large (1e400)"},
	{"amount past int64 nanos", HEAD "\"sandbox_usage\": {\"computed_cost_usd\": 1e300}}",
	 "sandbox_usage.computed_cost_usd is too large"},
	{"integer amount past int64 nanos", HEAD "\"sandbox_usage\": {\"billed_cost_usd\": 9223372037}}",
	 "sandbox_usage.billed_cost_usd is too large"},
	{"counter past int64", HEAD "\"sandbox_usage\": {\"cpu_ms\": 10000000000000000000}}", "sandbox_usage.cpu_ms is too large"},
	/* an integer is due: only an integer literal is one */
	{"1.0 as a counter", HEAD "\"sandbox_usage\": {\"memory_peak_mb\": 1.0}}",
	 "sandbox_usage.memory_peak_mb must be a whole number written as an integer (no fraction, no exponent), not 1.0"},
	{"1E3 as a duration", HEAD "\"sandbox_usage\": {\"total_duration_ms\": 1E3}}",
	 "sandbox_usage.total_duration_ms must be a whole number written as an integer (no fraction, no exponent), not 1E3"},
	{"1E3 as tokens", HEAD "\"token_usage\": {\"input_tokens\": 1E3}, \"sandbox_usage\": {}}",
	 "token_usage.input_tokens must be a whole number written as an integer"},
	/* the parser's own refusals, each named */
	{"duplicate cost_usd", HEAD "\"sandbox_usage\": {\"exec_count\": 1, \"executions\": [{\"cost_usd\":1,\"cost_usd\":1000}]}}",
	 "not valid JSON: duplicate key 'cost_usd' (column "},
	{"duplicate key in an unknown member", HEAD "\"x\": {\"a\": 1, \"a\": 2}, \"sandbox_usage\": {}}",
	 "not valid JSON: duplicate key 'a'"},
	{"a BOM", "\xef\xbb\xbf{\"run_id\": \"r\"}", "not valid JSON: a byte order mark (U+FEFF) where a value or white space is due (column 1)"},
	{"a raw control byte", HEAD "\"plan\": \"a\x01\", \"sandbox_usage\": {}}", "not valid JSON"},
	{"overlong UTF-8", HEAD "\"plan\": \"\xc0\xaf\", \"sandbox_usage\": {}}", "not valid JSON"},
	{"UTF-8 of a surrogate", HEAD "\"plan\": \"\xed\xa0\x80\", \"sandbox_usage\": {}}", "not valid JSON: invalid UTF-8 byte 0xed"},
	{"a lone surrogate escape", HEAD "\"plan\": \"a\\uD800b\", \"sandbox_usage\": {}}",
	 "not valid JSON: a \\u escape of half a UTF-16 surrogate pair"},
	/* time */
	{"ended_at before started_at", HEAD "\"ended_at\": \"2026-11-29T01:59:59.999Z\", \"sandbox_usage\": {}}",
	 "ended_at precedes started_at"},
	{"ended_at before started_at across offsets", HEAD "\"ended_at\": \"2026-11-29T03:59:59+02:00\", \"sandbox_usage\": {}}",
	 "ended_at precedes started_at"},
	{"started_at without offset", "{\"run_id\": \"r\", \"backend\": \"e2b\", \"started_at\": \"2026-11-29T02:00:00\", \"sandbox_usage\": {}}",
	 "started_at '2026-11-29T02:00:00' has no UTC offset"},
	{"ended_at without offset", HEAD "\"ended_at\": \"2026-11-29T03:00:00\", \"sandbox_usage\": {}}",
	 "ended_at '2026-11-29T03:00:00' has no UTC offset"},
	{"started_at a date only", "{\"run_id\": \"r\", \"backend\": \"e2b\", \"started_at\": \"2026-11-29\", \"sandbox_usage\": {}}",
	 "started_at '2026-11-29' is not an RFC 3339 timestamp"},
	{"started_at out of range", "{\"run_id\": \"r\", \"backend\": \"e2b\", \"started_at\": \"2026-02-30T02:00:00Z\", \"sandbox_usage\": {}}",
	 "started_at '2026-02-30T02:00:00Z' is not a valid date and time"},
	/* aggregates against the executions (add_exec) */
	{"exec_count 0 with one listed", HEAD "\"sandbox_usage\": {\"exec_count\": 0, \"total_duration_ms\": 10, "
	 "\"executions\": [{\"duration_ms\": 10}]}}", "sandbox_usage.exec_count is 0 but executions has 1 entry"},
	{"exec_count too small", HEAD "\"sandbox_usage\": {\"exec_count\": 1, \"total_duration_ms\": 20, "
	 "\"executions\": [{\"duration_ms\": 10}, {\"duration_ms\": 10}]}}",
	 "sandbox_usage.exec_count is 1 but executions has 2 entries"},
	{"total_duration_ms disagrees", HEAD "\"sandbox_usage\": {\"exec_count\": 2, \"total_duration_ms\": 21, "
	 "\"executions\": [{\"duration_ms\": 10}, {\"duration_ms\": 10}]}}",
	 "sandbox_usage.total_duration_ms is 21 but the executions' durations add up to 20"},
	{"cpu_ms disagrees", HEAD "\"sandbox_usage\": {\"exec_count\": 2, \"cpu_ms\": 5, "
	 "\"executions\": [{\"cpu_ms\": 3}, {\"cpu_ms\": 3}]}}",
	 "sandbox_usage.cpu_ms is 5 but the executions' cpu_ms add up to 6"},
	{"bytes_read disagrees", HEAD "\"sandbox_usage\": {\"exec_count\": 1, \"bytes_read\": 1, "
	 "\"executions\": [{\"bytes_read\": 2}]}}", "sandbox_usage.bytes_read is 1 but the executions' bytes_read add up to 2"},
	{"bytes_written disagrees", HEAD "\"sandbox_usage\": {\"exec_count\": 1, "
	 "\"executions\": [{\"bytes_written\": 4096}]}}",
	 "sandbox_usage.bytes_written is 0 but the executions' bytes_written add up to 4096"},
	{"memory_peak_mb the sum, not the max", HEAD "\"sandbox_usage\": {\"exec_count\": 2, \"memory_peak_mb\": 640, "
	 "\"executions\": [{\"memory_peak_mb\": 512}, {\"memory_peak_mb\": 128}]}}",
	 "sandbox_usage.memory_peak_mb is 640 but the executions' peak is 512"},
	{"memory_peak_mb below the max", HEAD "\"sandbox_usage\": {\"exec_count\": 2, \"memory_peak_mb\": 128, "
	 "\"executions\": [{\"memory_peak_mb\": 512}, {\"memory_peak_mb\": 128}]}}",
	 "sandbox_usage.memory_peak_mb is 128 but the executions' peak is 512"},
	/* two executions: 2 nanodollars of tolerance; 3 is too many */
	{"computed_cost_usd off by 3 nanos over 2 executions", HEAD "\"sandbox_usage\": {\"exec_count\": 2, "
	 "\"computed_cost_usd\": 0.001000003, \"executions\": [{\"cost_usd\": 0.0005}, {\"cost_usd\": 0.0005}]}}",
	 "sandbox_usage.computed_cost_usd is 0.001000003 but the executions' cost_usd add up to 0.001000000"},
	{"computed_cost_usd under by 3 nanos", HEAD "\"sandbox_usage\": {\"exec_count\": 2, "
	 "\"computed_cost_usd\": 0.000999997, \"executions\": [{\"cost_usd\": 0.0005}, {\"cost_usd\": 0.0005}]}}",
	 "sandbox_usage.computed_cost_usd is 0.000999997"},
	{"computed_cost_usd with a null cost", HEAD "\"sandbox_usage\": {\"exec_count\": 2, "
	 "\"computed_cost_usd\": 0.002, \"executions\": [{\"cost_usd\": 0.001}, {\"cost_usd\": null}]}}",
	 "add up to 0.001000000"},
	/* partly detailed (exec_count 4, 2 listed): each listed sum one over
	 * the record's (PART_OK below is the same record exactly at them) */
	{"partly detailed: durations 1 ms over", PART("3501", "150", "15", "27", "512", "0.0035"),
	 "sandbox_usage.total_duration_ms is 3500 but the executions listed have durations adding up to 3501, more"},
	{"partly detailed: cpu_ms 1 over", PART("3500", "151", "15", "27", "512", "0.0035"),
	 "sandbox_usage.cpu_ms is 150 but the executions listed have cpu_ms adding up to 151, more"},
	{"partly detailed: bytes_read 1 over", PART("3500", "150", "16", "27", "512", "0.0035"),
	 "sandbox_usage.bytes_read is 15 but the executions listed have bytes_read adding up to 16, more"},
	{"partly detailed: bytes_written 1 over", PART("3500", "150", "15", "28", "512", "0.0035"),
	 "sandbox_usage.bytes_written is 27 but the executions listed have bytes_written adding up to 28, more"},
	{"partly detailed: memory 1 MB over", PART("3500", "150", "15", "27", "513", "0.0035"),
	 "sandbox_usage.memory_peak_mb is 512 but the executions listed peak at 513, more"},
	/* cost: 2 listed, 2 nanodollars of tolerance: 0.003500003 is 3 over */
	{"partly detailed: cost 3 nanos over 2 listed", PART("3500", "150", "15", "27", "512", "0.003500003"),
	 "sandbox_usage.computed_cost_usd is 0.003500000 but the executions listed have cost_usd adding up to 0.003500003, "
	 "over it by more than one nanodollar per execution listed"},
	{"partly detailed: a negative total under the listed", HEAD "\"sandbox_usage\": {\"exec_count\": 3, "
	 "\"total_duration_ms\": -6, \"executions\": [{\"duration_ms\": -5}]}}",
	 "sandbox_usage.total_duration_ms is -6 but the executions listed have durations adding up to -5, more"},
	/* Unix seconds outside the years 0000 to 9999 */
	{"unix seconds huge", "{\"run_id\": \"r\", \"backend\": \"e2b\", \"started_at\": 1e300, \"sandbox_usage\": {}}",
	 "started_at 1e300 (Unix seconds) is not between the years 0000 and 9999"},
	{"unix seconds past 9999", "{\"run_id\": \"r\", \"backend\": \"e2b\", \"started_at\": 253402300800, \"sandbox_usage\": {}}",
	 "started_at 253402300800 (Unix seconds) is not between"},
	{"unix seconds before 0000", "{\"run_id\": \"r\", \"backend\": \"e2b\", \"started_at\": -62167219200.0001, \"sandbox_usage\": {}}",
	 "started_at -62167219200.0001 (Unix seconds) is not between"},
	{"unix seconds with a huge exponent", "{\"run_id\": \"r\", \"backend\": \"e2b\", \"started_at\": 1e19, \"sandbox_usage\": {}}",
	 "started_at 1e19 (Unix seconds) is not between"},
	{"unix ended_at 1 ms before", "{\"run_id\": \"r\", \"backend\": \"e2b\", \"started_at\": 1764381600.125, "
	 "\"ended_at\": 1764381600.1249, \"sandbox_usage\": {}}", "ended_at precedes started_at"},
	{"unix ended_at before an RFC 3339 start", HEAD "\"ended_at\": 1795917599.999, \"sandbox_usage\": {}}",
	 "ended_at precedes started_at"},
};

/* A rule's line must be rejected with its reason. */
static void test_rule(void **state)
{
	const struct rule *r = *state;
	sb_run_parser *p = sb_run_parser_new();
	sb_run run;
	sb_err e;
	int rc;

	assert_non_null(p);
	sb_err_clear(&e);
	rc = sb_run_parse(p, r->line, strlen(r->line), &run, &e);
	if (rc != SB_EDATA || e.code != SB_EDATA || strstr(e.msg, r->reason) == NULL) {
		print_error("%s: got rc %d \"%s\", want %d \"%s\"\n  %s\n", r->name, rc, e.msg,
		            SB_EDATA, r->reason, r->line);
		sb_run_parser_free(p);
		fail();
	}
	sb_run_parser_free(p);
}

/* ---- what valid records become */

static void test_example_record(void **state)
{
	sb_run run;

	parse_ok(*state, EXAMPLE, &run);
	assert_string_equal(run.run_id, "run_7f3a");
	assert_string_equal(run.backend, "e2b");
	assert_string_equal(run.session_id, "sbx-91c2");
	assert_null(run.plan);
	assert_int_equal(run.started_ms, INT64_C(1795917600000));
	assert_true(run.has_ended);
	assert_int_equal(run.ended_ms, INT64_C(1795918093000));
	assert_string_equal(run.model, "gpt-5.6-terra");
	assert_int_equal(run.input_tokens, 12000);
	assert_int_equal(run.output_tokens, 3000);
	assert_true(run.has_budget);
	assert_int_equal(run.budget_nanos, 500000000);
	assert_int_equal(run.exec_count, 2);
	assert_int_equal(run.total_duration_ms, 1500);
	assert_int_equal(run.cpu_ms, 900);
	assert_int_equal(run.memory_peak_mb, 512);
	assert_int_equal(run.bytes_read, 0);
	assert_int_equal(run.bytes_written, 4096);
	assert_int_equal(run.computed_nanos, 1500000);
	assert_false(run.has_billed);
	assert_int_equal(run.n_execs, 2);
	assert_int_equal(run.execs[0].command_len, 9);
	assert_memory_equal(run.execs[0].command, "pytest -q", 9);
	assert_true(run.execs[0].has_exit_code);
	assert_int_equal(run.execs[0].exit_code, 0);
	assert_int_equal(run.execs[0].duration_ms, 1000);
	assert_int_equal(run.execs[0].cpu_ms, 600);
	assert_int_equal(run.execs[0].memory_peak_mb, 512);
	assert_int_equal(run.execs[0].bytes_written, 4096);
	assert_true(run.execs[0].has_cost);
	assert_int_equal(run.execs[0].cost_nanos, 1000000);
	assert_null(run.execs[0].extra);
	assert_int_equal(run.execs[1].cost_nanos, 500000);
	assert_int_equal(run.n_tags, 2);
	assert_string_equal(run.tags_json, "{\"customer\":\"acme\",\"team\":\"search\"}");
	assert_null(run.extra);
	assert_int_equal(strlen(run.fingerprint), 64);
}

static void test_minimal_record_defaults(void **state)
{
	sb_run run;

	parse_ok(*state, HEAD "\"sandbox_usage\": {}}", &run);
	assert_null(run.session_id);
	assert_null(run.plan);
	assert_false(run.has_ended);
	assert_null(run.model);
	assert_int_equal(run.input_tokens, 0);
	assert_false(run.has_budget);
	assert_int_equal(run.exec_count, 0);
	assert_int_equal(run.total_duration_ms, 0);
	assert_int_equal(run.memory_peak_mb, 0);
	assert_int_equal(run.computed_nanos, 0);
	assert_false(run.has_billed);
	assert_int_equal(run.n_execs, 0);
	assert_int_equal(run.n_tags, 0);
	assert_null(run.tags_json);
	assert_null(run.extra);

	/* null where null is allowed; an empty executions list */
	parse_ok(*state, HEAD "\"session_id\": null, \"ended_at\": null, \"tags\": null, \"token_usage\": null, "
	         "\"budget_usd\": null, \"sandbox_usage\": {\"billed_cost_usd\": null, \"executions\": []}}", &run);
	assert_null(run.session_id);
	assert_false(run.has_ended);
	assert_false(run.has_billed);
	assert_int_equal(run.n_execs, 0);

	/* billed 0 is known, unlike null */
	parse_ok(*state, HEAD "\"sandbox_usage\": {\"billed_cost_usd\": 0}}", &run);
	assert_true(run.has_billed);
	assert_int_equal(run.billed_nanos, 0);
	/* ended_at equal to started_at is fine; offsets are converted */
	parse_ok(*state, "{\"run_id\": \"r\", \"backend\": \"e2b\", \"started_at\": \"2026-11-29T02:00:00.125+02:00\", "
	         "\"ended_at\": \"2026-11-29T00:00:00.125Z\", \"sandbox_usage\": {}}", &run);
	assert_int_equal(run.started_ms, INT64_C(1795910400125));
	assert_int_equal(run.ended_ms, run.started_ms);
}

static void test_summary_only_record(void **state)
{
	sb_run run;

	/* exec_count > 0 and no executions: accepted as it is */
	parse_ok(*state, HEAD "\"sandbox_usage\": {\"exec_count\": 3, \"total_duration_ms\": 6000, "
	         "\"cpu_ms\": 100, \"memory_peak_mb\": 64, \"computed_cost_usd\": 0.01}}", &run);
	assert_int_equal(run.exec_count, 3);
	assert_int_equal(run.total_duration_ms, 6000);
	assert_int_equal(run.computed_nanos, 10000000);
	assert_int_equal(run.n_execs, 0);
	/* an empty list is no list: summary-only too */
	parse_ok(*state, HEAD "\"sandbox_usage\": {\"exec_count\": 3, \"total_duration_ms\": 6000, \"executions\": []}}", &run);
	assert_int_equal(run.exec_count, 3);
	assert_int_equal(run.n_execs, 0);
}

static void test_computed_within_tolerance(void **state)
{
	sb_run run;

	/* two executions: up to 2 nanodollars either way */
	parse_ok(*state, HEAD "\"sandbox_usage\": {\"exec_count\": 2, \"computed_cost_usd\": 0.001000002, "
	         "\"executions\": [{\"cost_usd\": 0.0005}, {\"cost_usd\": 0.0005}]}}", &run);
	assert_int_equal(run.computed_nanos, 1000002);
	parse_ok(*state, HEAD "\"sandbox_usage\": {\"exec_count\": 2, \"computed_cost_usd\": 0.000999998, "
	         "\"executions\": [{\"cost_usd\": 0.0005}, {\"cost_usd\": 0.0005}]}}", &run);
	/* float sums as the SDK makes them: 0.1 + 0.2 */
	parse_ok(*state, HEAD "\"sandbox_usage\": {\"exec_count\": 2, \"computed_cost_usd\": 0.30000000000000004, "
	         "\"executions\": [{\"cost_usd\": 0.1}, {\"cost_usd\": 0.2}]}}", &run);
	assert_int_equal(run.computed_nanos, 300000000);
	/* null costs add nothing */
	parse_ok(*state, HEAD "\"sandbox_usage\": {\"exec_count\": 2, \"computed_cost_usd\": 0.001, "
	         "\"executions\": [{\"cost_usd\": 0.001}, {\"cost_usd\": null}]}}", &run);
	assert_true(run.execs[0].has_cost);
	assert_false(run.execs[1].has_cost);
}

/* "sandbox_usage": null: a run that used no sandbox; its tokens count. */
static void test_no_sandbox(void **state)
{
	sb_run run;
	char with_null[65], with_empty[65];

	parse_ok(*state, HEAD "\"token_usage\": {\"model\": \"m\", \"input_tokens\": 120, \"output_tokens\": 30}, "
	         "\"sandbox_usage\": null}", &run);
	assert_int_equal(run.exec_count, 0);
	assert_int_equal(run.total_duration_ms, 0);
	assert_int_equal(run.cpu_ms, 0);
	assert_int_equal(run.memory_peak_mb, 0);
	assert_int_equal(run.bytes_read, 0);
	assert_int_equal(run.bytes_written, 0);
	assert_int_equal(run.computed_nanos, 0);
	assert_false(run.has_billed);
	assert_int_equal(run.n_execs, 0);
	assert_null(run.extra);
	assert_int_equal(run.input_tokens, 120);
	assert_int_equal(run.output_tokens, 30);
	/* at the ledger's resolution it is the empty usage: the same record */
	fingerprint_of(*state, HEAD "\"sandbox_usage\": null}", with_null);
	fingerprint_of(*state, HEAD "\"sandbox_usage\": {}}", with_empty);
	assert_string_equal(with_null, with_empty);
}

/* exec_count above the executions listed: the aggregates are the record's,
 * the listed ones within them (the rejections are in rules[]). */
static void test_partly_detailed(void **state)
{
	sb_run run;

	/* the SDK's __add__: 2 summary-only + 2 listed */
	parse_ok(*state, PART("500", "50", "5", "7", "512", "0.0005"), &run);
	assert_int_equal(run.exec_count, 4);
	assert_int_equal(run.n_execs, 2);
	assert_int_equal(run.total_duration_ms, 3500);
	assert_int_equal(run.cpu_ms, 150);
	assert_int_equal(run.bytes_read, 15);
	assert_int_equal(run.bytes_written, 27);
	assert_int_equal(run.memory_peak_mb, 512);
	assert_int_equal(run.computed_nanos, 3500000);
	assert_int_equal(run.execs[1].duration_ms, 500);
	assert_int_equal(run.execs[1].cost_nanos, 500000);
	/* the listed executions exactly at the aggregates */
	parse_ok(*state, PART("3500", "150", "15", "27", "512", "0.0035"), &run);
	assert_int_equal(run.exec_count, 4);
	assert_int_equal(run.n_execs, 2);
	/* their cost over computed by the tolerance, 1 nanodollar per listed
	 * execution: 0.003500002 is 2 over, accepted (3 over is in rules[]) */
	parse_ok(*state, PART("3500", "150", "15", "27", "512", "0.003500002"), &run);
	assert_int_equal(run.computed_nanos, 3500000);
	/* one listed of many, costs null (no rate card) */
	parse_ok(*state, HEAD "\"sandbox_usage\": {\"exec_count\": 4, \"total_duration_ms\": 4000, "
	         "\"computed_cost_usd\": 0.0, \"executions\": [{\"command\": \"ls\", \"exit_code\": 0, "
	         "\"duration_ms\": 1000, \"cost_usd\": null}]}}", &run);
	assert_int_equal(run.exec_count, 4);
	assert_int_equal(run.n_execs, 1);
	/* a negative listed duration (clock skew) within a total that is
	 * not negative, and a negative total exactly at the listed sum */
	parse_ok(*state, HEAD "\"sandbox_usage\": {\"exec_count\": 3, \"total_duration_ms\": 800, "
	         "\"executions\": [{\"duration_ms\": -200}]}}", &run);
	assert_int_equal(run.execs[0].duration_ms, -200);
	assert_int_equal(run.total_duration_ms, 800);
	parse_ok(*state, HEAD "\"sandbox_usage\": {\"exec_count\": 3, \"total_duration_ms\": -5, "
	         "\"executions\": [{\"duration_ms\": -5}]}}", &run);
	assert_int_equal(run.total_duration_ms, -5);
}

/* Negative durations are kept as given, the total their sum. */
static void test_negative_durations(void **state)
{
	sb_run run;

	parse_ok(*state, HEAD "\"sandbox_usage\": {\"exec_count\": 3, \"total_duration_ms\": 999, "
	         "\"computed_cost_usd\": 0.001, \"executions\": [{\"duration_ms\": -1, \"cost_usd\": 0.0}, "
	         "{\"duration_ms\": 0, \"cost_usd\": 0.0}, {\"duration_ms\": 1000, \"cost_usd\": 0.001}]}}", &run);
	assert_int_equal(run.execs[0].duration_ms, -1);
	assert_int_equal(run.execs[1].duration_ms, 0);
	assert_int_equal(run.execs[2].duration_ms, 1000);
	assert_int_equal(run.total_duration_ms, 999);
	/* a total below 0 as the sum of negative durations */
	parse_ok(*state, HEAD "\"sandbox_usage\": {\"exec_count\": 2, \"total_duration_ms\": -5, "
	         "\"executions\": [{\"duration_ms\": -3}, {\"duration_ms\": -2}]}}", &run);
	assert_int_equal(run.total_duration_ms, -5);
	assert_int_equal(run.execs[1].duration_ms, -2);
}

/* started_at / ended_at as JSON numbers: Unix seconds, the digits past
 * the millisecond dropped toward the earlier instant, from the number's
 * text.  Expected values by hand: 1764381600 s = 2025-11-29T02:00:00Z. */
static void test_unix_seconds(void **state)
{
	static const struct {
		const char *text;    /* the JSON number */
		int64_t ms;          /* the instant */
	} cases[] = {
		{"1764381600", INT64_C(1764381600000)},
		{"1764381600.0", INT64_C(1764381600000)},
		{"1764381600.125", INT64_C(1764381600125)},   /* 3 decimals, exact in binary */
		/* 3 decimals not exact in binary: the double is
		 * 1764381600.12299990654..., the text says 123 */
		{"1764381600.123", INT64_C(1764381600123)},
		{"1764381600.1239", INT64_C(1764381600123)},  /* 4 decimals: truncated, not rounded */
		{"1764381600.1234567", INT64_C(1764381600123)},  /* time.time()'s 7 */
		/* the nearest double is 1764381601.0: still 999 ms */
		{"1764381600.9999999", INT64_C(1764381600999)},
		{"1.764381600125e9", INT64_C(1764381600125)},
		{"17643816001259E-4", INT64_C(1764381600125)},
		{"1e3", INT64_C(1000000)},
		{"0", 0},
		{"-0.0", 0},
		{"0.0009", 0},
		{"-0.0005", -1},                              /* toward the earlier ms */
		{"-1.5", -1500},
		{"-1.0005", -1001},
		{"-62167219200", INT64_C(-62167219200000)},   /* 0000-01-01T00:00:00Z */
		{"253402300799.9999", INT64_C(253402300799999)}, /* 9999-12-31T23:59:59.999Z */
		{"0.1e-400", 0},
	};
	char line[256];
	sb_run run;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(line, sizeof line, "{\"run_id\": \"r\", \"backend\": \"e2b\", \"started_at\": %s, "
		         "\"sandbox_usage\": null}", cases[i].text);
		parse_ok(*state, line, &run);
		if (run.started_ms != cases[i].ms)
			fail_msg("started_at %s: %lld ms, want %lld", cases[i].text, (long long)run.started_ms,
			         (long long)cases[i].ms);
		/* the same as ended_at, after an RFC 3339 start far earlier */
		snprintf(line, sizeof line, "{\"run_id\": \"r\", \"backend\": \"e2b\", \"started_at\": "
		         "\"0000-01-01T00:00:00Z\", \"ended_at\": %s, \"sandbox_usage\": null}", cases[i].text);
		parse_ok(*state, line, &run);
		assert_true(run.has_ended);
		assert_int_equal(run.ended_ms, cases[i].ms);
	}
	/* the member is found whatever comes before it: a nested started_at,
	 * a string holding one, an escaped key */
	parse_ok(*state, "{\"x\": {\"started_at\": 5, \"s\": \"\\\"started_at\\\": 7,\"}, \"run_id\": \"r\", "
	         "\"backend\": \"e2b\", \"started\\u005fat\" : 1764381600.007 , \"sandbox_usage\": {}}", &run);
	assert_int_equal(run.started_ms, INT64_C(1764381600007));
	/* a number and the RFC 3339 text of the same instant: the same record */
	{
		char a[65], b[65];
		fingerprint_of(*state, "{\"run_id\": \"r\", \"backend\": \"e2b\", \"started_at\": 1764381600.1259, "
		               "\"sandbox_usage\": {}}", a);
		fingerprint_of(*state, "{\"run_id\": \"r\", \"backend\": \"e2b\", \"started_at\": "
		               "\"2025-11-29T02:00:00.125Z\", \"sandbox_usage\": {}}", b);
		assert_string_equal(a, b);
	}
}

/* token_usage as the SDK's LLMUsage writes it: no model, and members the
 * ledger does not know (kept in extra). */
static void test_tokens_without_model(void **state)
{
	sb_run run;

	parse_ok(*state, HEAD "\"token_usage\": {\"requests\": 2, \"tool_calls\": 1, \"total_tokens\": 15000, "
	         "\"input_tokens\": 12000, \"input_tokens_details\": {\"cached_tokens\": 0, "
	         "\"cache_creation_input_tokens\": 0}, \"output_tokens\": 3000, "
	         "\"output_tokens_details\": {\"reasoning_tokens\": 0}, \"usage\": []}, \"sandbox_usage\": null}", &run);
	assert_null(run.model);
	assert_int_equal(run.input_tokens, 12000);
	assert_int_equal(run.output_tokens, 3000);
	assert_non_null(run.extra);
	assert_non_null(strstr(run.extra, "\"token_usage\":{"));
	assert_non_null(strstr(run.extra, "\"total_tokens\":15000"));
}

static void test_long_run_id(void **state)
{
	sb_run run;

	parse_ok(*state, "{\"run_id\": \"" X256 "\", \"backend\": \"e2b\", \"started_at\": \"2026-11-29T02:00:00Z\", "
	         "\"sandbox_usage\": {}}", &run);
	assert_int_equal(strlen(run.run_id), 256);
	/* 256 bytes of UTF-8, fewer characters */
	parse_ok(*state, "{\"run_id\": \"" X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16
	         "xxxxxxxxxxxxxx\\u00e9\", \"backend\": \"e2b\", \"started_at\": \"2026-11-29T02:00:00Z\", "
	         "\"sandbox_usage\": {}}", &run);
	assert_int_equal(strlen(run.run_id), 256);
}

static void test_sdk_class_names(void **state)
{
	static const char *const map[][2] = {
		{"LocalSubprocessSandboxClient", "local"}, {"DockerSandboxClient", "docker"},
		{"K8sPodSandboxClient", "k8s"}, {"E2bSandboxClient", "e2b"},
		{"CloudflareSandboxClient", "cloudflare"}, {"DaytonaSandboxClient", "daytona"},
		{"BlaxelSandboxClient", "blaxel"}, {"ModalSandboxClient", "modal"},
		{"RunloopSandboxClient", "runloop"}, {"VercelSandboxClient", "vercel"},
	};
	char line[512];
	sb_run run;

	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
		assert_string_equal(sb_backend_from_sdk(map[i][0]), map[i][1]);
		snprintf(line, sizeof line, "{\"run_id\": \"r\", \"backend\": \"%s\", "
		         "\"started_at\": \"2026-11-29T02:00:00Z\", \"sandbox_usage\": {}}", map[i][0]);
		parse_ok(*state, line, &run);
		assert_string_equal(run.backend, map[i][1]);
		/* the ids themselves are accepted as they are */
		snprintf(line, sizeof line, "{\"run_id\": \"r\", \"backend\": \"%s\", "
		         "\"started_at\": \"2026-11-29T02:00:00Z\", \"sandbox_usage\": {}}", map[i][1]);
		parse_ok(*state, line, &run);
		assert_string_equal(run.backend, map[i][1]);
	}
	/* custom backends */
	parse_ok(*state, "{\"run_id\": \"r\", \"backend\": \"acme_cloud-2\", \"started_at\": "
	         "\"2026-11-29T02:00:00Z\", \"sandbox_usage\": {}}", &run);
	assert_string_equal(run.backend, "acme_cloud-2");
	assert_string_equal(sb_backend_from_sdk("e2bSandboxClient"), "e2bSandboxClient");
	assert_true(sb_backend_id_valid("a"));
	assert_true(sb_backend_id_valid("0-9_z"));
	assert_true(sb_backend_id_valid(X16 X16 X16 X16));
	assert_false(sb_backend_id_valid(X65));
	assert_false(sb_backend_id_valid(""));
	assert_false(sb_backend_id_valid("E2b"));
	assert_false(sb_backend_id_valid("e2b.io"));
}

static void test_unknown_fields_kept(void **state)
{
	sb_run run;

	parse_ok(*state, HEAD "\"agent\": {\"name\": \"coder\", \"v\": 2}, \"zone\": \"eu\", "
	         "\"token_usage\": {\"model\": \"m\", \"cached_tokens\": 7}, "
	         "\"sandbox_usage\": {\"gpu_ms\": 5, \"exec_count\": 1, \"executions\": ["
	         "{\"duration_ms\": 0, \"signal\": null, \"cwd\": \"/w\"}]}}", &run);
	assert_string_equal(run.extra,
		"{\"agent\":{\"name\":\"coder\",\"v\":2},\"sandbox_usage\":{\"gpu_ms\":5},"
		"\"token_usage\":{\"cached_tokens\":7},\"zone\":\"eu\"}");
	assert_string_equal(run.execs[0].extra, "{\"cwd\":\"/w\",\"signal\":null}");
	assert_string_equal(run.model, "m");
}

static void test_tags(void **state)
{
	sb_run run;

	parse_ok(*state, HEAD "\"tags\": {\"customer\": \"acme\", \"tier\": 2, \"vip\": true, \"gone\": null}, "
	         "\"sandbox_usage\": {}}", &run);
	assert_int_equal(run.n_tags, 3);
	for (size_t i = 0; i < run.n_tags; i++) {
		if (strcmp(run.tags[i].name, "customer") == 0)
			assert_string_equal(run.tags[i].value, "acme");
		else if (strcmp(run.tags[i].name, "tier") == 0)
			assert_string_equal(run.tags[i].value, "2");
		else if (strcmp(run.tags[i].name, "vip") == 0)
			assert_string_equal(run.tags[i].value, "true");
		else
			fail_msg("unexpected tag %s", run.tags[i].name);
	}
}

/* ---- the fingerprint */

static void test_fingerprint_same_record(void **state)
{
	sb_run_parser *p = *state;
	char a[65], b[65];

	fingerprint_of(p, EXAMPLE, a);
	/* keys reordered, numbers spelled differently, other white space */
	fingerprint_of(p,
		"{\"sandbox_usage\":{\"executions\":[{\"cost_usd\":1e-3,\"bytes_written\":4096,\"bytes_read\":0,"
		"\"memory_peak_mb\":512,\"cpu_ms\":600,\"duration_ms\":1000,\"exit_code\":0,\"command\":\"pytest -q\"},"
		"{\"cost_usd\":5e-4,\"bytes_written\":0,\"bytes_read\":0,\"memory_peak_mb\":128,\"cpu_ms\":300,"
		"\"duration_ms\":500,\"exit_code\":0,\"command\":\"ls\"}],"
		"\"billed_cost_usd\":null,\"computed_cost_usd\":0.00150,\"bytes_written\":4096,\"bytes_read\":0,"
		"\"memory_peak_mb\":512,\"cpu_ms\":900,\"total_duration_ms\":1500,\"exec_count\":2},"
		"\"budget_usd\":5e-1,\"token_usage\":{\"output_tokens\":3000,\"input_tokens\":12000,"
		"\"model\":\"gpt-5.6-terra\"},\"tags\":{\"team\":\"search\",\"customer\":\"acme\"},"
		"\"ended_at\":\"2026-11-29T02:08:13Z\",\"started_at\":\"2026-11-29T02:00:00Z\",\"plan\":null,"
		"\"session_id\":\"sbx-91c2\",\"backend\":\"E2bSandboxClient\",\"run_id\":\"run_7f3a\"}", b);
	assert_string_equal(a, b);
	/* the same instant written with another offset */
	fingerprint_of(p, HEAD "\"sandbox_usage\": {}}", a);
	fingerprint_of(p, "{\"run_id\": \"r\", \"backend\": \"e2b\", \"started_at\": \"2026-11-29T04:00:00+02:00\", "
	               "\"sandbox_usage\": {}}", b);
	assert_string_equal(a, b);
}

static void test_fingerprint_changes_with_any_value(void **state)
{
	/* each differs from BASE in one value */
#define BASE_HEAD "{\"run_id\": \"r\", \"backend\": \"e2b\", "
#define BASE_USAGE "\"sandbox_usage\": {\"exec_count\": 1, \"total_duration_ms\": 10, " \
	"\"computed_cost_usd\": 0.001, \"executions\": [{\"command\": \"ls\", \"duration_ms\": 10, \"cost_usd\": 0.001}]}"
	static const char *const variants[] = {
		BASE_HEAD "\"started_at\": \"2026-11-29T02:00:00Z\", \"tags\": {\"c\": \"a\"}, " BASE_USAGE "}",
		"{\"run_id\": \"r2\", \"backend\": \"e2b\", \"started_at\": \"2026-11-29T02:00:00Z\", \"tags\": {\"c\": \"a\"}, " BASE_USAGE "}",
		"{\"run_id\": \"r\", \"backend\": \"modal\", \"started_at\": \"2026-11-29T02:00:00Z\", \"tags\": {\"c\": \"a\"}, " BASE_USAGE "}",
		BASE_HEAD "\"started_at\": \"2026-11-29T02:00:00.001Z\", \"tags\": {\"c\": \"a\"}, " BASE_USAGE "}",
		BASE_HEAD "\"started_at\": \"2026-11-29T02:00:00Z\", \"ended_at\": \"2026-11-29T02:00:00Z\", \"tags\": {\"c\": \"a\"}, " BASE_USAGE "}",
		BASE_HEAD "\"started_at\": \"2026-11-29T02:00:00Z\", \"tags\": {\"c\": \"b\"}, " BASE_USAGE "}",
		BASE_HEAD "\"started_at\": \"2026-11-29T02:00:00Z\", \"tags\": {\"c\": \"a\", \"d\": \"a\"}, " BASE_USAGE "}",
		BASE_HEAD "\"started_at\": \"2026-11-29T02:00:00Z\", \"session_id\": \"s\", \"tags\": {\"c\": \"a\"}, " BASE_USAGE "}",
		BASE_HEAD "\"started_at\": \"2026-11-29T02:00:00Z\", \"plan\": \"p\", \"tags\": {\"c\": \"a\"}, " BASE_USAGE "}",
		BASE_HEAD "\"started_at\": \"2026-11-29T02:00:00Z\", \"budget_usd\": 0, \"tags\": {\"c\": \"a\"}, " BASE_USAGE "}",
		BASE_HEAD "\"started_at\": \"2026-11-29T02:00:00Z\", \"token_usage\": {\"model\": \"m\"}, \"tags\": {\"c\": \"a\"}, " BASE_USAGE "}",
		BASE_HEAD "\"started_at\": \"2026-11-29T02:00:00Z\", \"token_usage\": {\"input_tokens\": 1}, \"tags\": {\"c\": \"a\"}, " BASE_USAGE "}",
		BASE_HEAD "\"started_at\": \"2026-11-29T02:00:00Z\", \"x\": 1, \"tags\": {\"c\": \"a\"}, " BASE_USAGE "}",
		BASE_HEAD "\"started_at\": \"2026-11-29T02:00:00Z\", \"tags\": {\"c\": \"a\"}, "
		"\"sandbox_usage\": {\"exec_count\": 1, \"total_duration_ms\": 10, \"billed_cost_usd\": 0, "
		"\"computed_cost_usd\": 0.001, \"executions\": [{\"command\": \"ls\", \"duration_ms\": 10, \"cost_usd\": 0.001}]}}",
		BASE_HEAD "\"started_at\": \"2026-11-29T02:00:00Z\", \"tags\": {\"c\": \"a\"}, "
		"\"sandbox_usage\": {\"exec_count\": 1, \"total_duration_ms\": 10, "
		"\"computed_cost_usd\": 0.002, \"executions\": [{\"command\": \"ls\", \"duration_ms\": 10, \"cost_usd\": 0.002}]}}",
		BASE_HEAD "\"started_at\": \"2026-11-29T02:00:00Z\", \"tags\": {\"c\": \"a\"}, "
		"\"sandbox_usage\": {\"exec_count\": 1, \"total_duration_ms\": 10, "
		"\"computed_cost_usd\": 0.001, \"executions\": [{\"command\": \"ls -l\", \"duration_ms\": 10, \"cost_usd\": 0.001}]}}",
		BASE_HEAD "\"started_at\": \"2026-11-29T02:00:00Z\", \"tags\": {\"c\": \"a\"}, "
		"\"sandbox_usage\": {\"exec_count\": 1, \"total_duration_ms\": 10, "
		"\"computed_cost_usd\": 0.001, \"executions\": [{\"command\": \"ls\", \"exit_code\": 0, \"duration_ms\": 10, \"cost_usd\": 0.001}]}}",
		BASE_HEAD "\"started_at\": \"2026-11-29T02:00:00Z\", \"tags\": {\"c\": \"a\"}, "
		"\"sandbox_usage\": {\"exec_count\": 1, \"total_duration_ms\": 10, \"memory_peak_mb\": 1, "
		"\"computed_cost_usd\": 0.001, \"executions\": [{\"command\": \"ls\", \"duration_ms\": 10, \"memory_peak_mb\": 1, \"cost_usd\": 0.001}]}}",
		BASE_HEAD "\"started_at\": \"2026-11-29T02:00:00Z\", \"tags\": {\"c\": \"a\"}, "
		"\"sandbox_usage\": {\"exec_count\": 1, \"total_duration_ms\": 10, "
		"\"computed_cost_usd\": 0.001, \"executions\": [{\"command\": \"ls\", \"duration_ms\": 10, \"cost_usd\": 0.001, \"y\": 1}]}}",
		/* summary-only with the same aggregates is another record */
		BASE_HEAD "\"started_at\": \"2026-11-29T02:00:00Z\", \"tags\": {\"c\": \"a\"}, "
		"\"sandbox_usage\": {\"exec_count\": 1, \"total_duration_ms\": 10, \"computed_cost_usd\": 0.001}}",
	};
	enum { N = sizeof variants / sizeof variants[0] };
	char prints[N][65];

	for (size_t i = 0; i < N; i++) {
		fingerprint_of(*state, variants[i], prints[i]);
		for (size_t j = 0; j < i; j++)
			if (strcmp(prints[i], prints[j]) == 0)
				fail_msg("variants %zu and %zu have the same fingerprint:\n  %s\n  %s", j, i,
				         variants[j], variants[i]);
	}
#undef BASE_HEAD
#undef BASE_USAGE
}

static void test_parser_reused(void **state)
{
	sb_run_parser *p = *state;
	sb_run run;
	sb_err e;

	/* a rejected record leaves the parser ready for the next one */
	sb_err_clear(&e);
	assert_int_equal(sb_run_parse(p, "{", 1, &run, &e), SB_EDATA);
	for (int i = 0; i < 50; i++) {
		char line[256];
		snprintf(line, sizeof line, "{\"run_id\": \"r%d\", \"backend\": \"e2b\", \"started_at\": "
		         "\"2026-11-29T02:00:00Z\", \"x\": %d, \"tags\": {\"n\": %d}, \"sandbox_usage\": {}}", i, i, i);
		parse_ok(p, line, &run);
		assert_int_equal(atoi(run.run_id + 1), i);
		assert_int_equal(atoi(run.tags[0].value), i);
	}
	/* the text need not be NUL-terminated: only len bytes are read */
	{
		const char *two = HEAD "\"sandbox_usage\": {}}{garbage";
		sb_err_clear(&e);
		assert_int_equal(sb_run_parse(p, two, strlen(two) - strlen("{garbage"), &run, &e), SB_OK);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example_record),
		cmocka_unit_test(test_minimal_record_defaults),
		cmocka_unit_test(test_summary_only_record),
		cmocka_unit_test(test_computed_within_tolerance),
		cmocka_unit_test(test_no_sandbox),
		cmocka_unit_test(test_partly_detailed),
		cmocka_unit_test(test_negative_durations),
		cmocka_unit_test(test_unix_seconds),
		cmocka_unit_test(test_tokens_without_model),
		cmocka_unit_test(test_long_run_id),
		cmocka_unit_test(test_sdk_class_names),
		cmocka_unit_test(test_unknown_fields_kept),
		cmocka_unit_test(test_tags),
		cmocka_unit_test(test_fingerprint_same_record),
		cmocka_unit_test(test_fingerprint_changes_with_any_value),
		cmocka_unit_test(test_parser_reused),
	};
	enum { N_RULES = sizeof rules / sizeof rules[0] };
	struct CMUnitTest rule_tests[N_RULES];
	int failed;

	/* one test per rule, named by what its line breaks */
	for (size_t i = 0; i < N_RULES; i++)
		rule_tests[i] = (struct CMUnitTest){rules[i].name, test_rule, NULL, NULL, (void *)&rules[i]};
	failed = _cmocka_run_group_tests("runs_jsonl_rules", rule_tests, N_RULES, NULL, NULL);
	failed += cmocka_run_group_tests_name("runs_jsonl", tests, parser_setup, parser_teardown);
	return failed;
}
