/* runs_jsonl.c: parse and validate run-usage records (see runs_jsonl.h).
 *
 * Longer than 600 lines on purpose: it is the format's rules, field by
 * field (docs/formats-runs.md), each a few lines over one parsed record
 * and the parser's helpers; read in one place they are the format, and
 * a split by field would scatter one record's checks over files.
 */
#include "importers/runs_jsonl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <openssl/evp.h>

#include "importers/arena.h"
#include "ledger/money.h"
#include "ledger/quote.h"
#include "ledger/timefmt.h"

enum { ARENA_BLOCK = 64 * 1024 };

struct sb_run_parser {
	sb_arena *arena;       /* the line's JSON values and texts, reset per line */
	sb_exec *execs;        /* executions of the current record */
	size_t execs_cap;      /* allocated entries */
	sb_tag *tags;          /* tags of the current record */
	size_t tags_cap;       /* allocated entries */
	EVP_MD_CTX *sha;       /* for the fingerprint */
};

static const struct {
	const char *sdk_class;  /* the agent SDK's client class */
	const char *id;         /* its backend id */
} sdk_backends[] = {
	{"LocalSubprocessSandboxClient", "local"},
	{"DockerSandboxClient", "docker"},
	{"K8sPodSandboxClient", "k8s"},
	{"E2bSandboxClient", "e2b"},
	{"CloudflareSandboxClient", "cloudflare"},
	{"DaytonaSandboxClient", "daytona"},
	{"BlaxelSandboxClient", "blaxel"},
	{"ModalSandboxClient", "modal"},
	{"RunloopSandboxClient", "runloop"},
	{"VercelSandboxClient", "vercel"},
};

/* The fields of a record the ledger knows; anything else goes to extra. */
static const char *const run_keys[] = {
	"run_id", "backend", "session_id", "plan", "started_at", "ended_at", "tags",
	"token_usage", "budget_usd", "sandbox_usage", NULL};
static const char *const usage_keys[] = {
	"exec_count", "total_duration_ms", "cpu_ms", "memory_peak_mb", "bytes_read",
	"bytes_written", "computed_cost_usd", "billed_cost_usd", "executions", NULL};
static const char *const exec_keys[] = {
	"command", "exit_code", "duration_ms", "cpu_ms", "memory_peak_mb", "bytes_read",
	"bytes_written", "cost_usd", NULL};
static const char *const token_keys[] = {"model", "input_tokens", "output_tokens", NULL};

const char *sb_backend_from_sdk(const char *name)
{
	for (size_t i = 0; i < sizeof sdk_backends / sizeof sdk_backends[0]; i++)
		if (strcmp(sdk_backends[i].sdk_class, name) == 0)
			return sdk_backends[i].id;
	return name;
}

bool sb_backend_id_valid(const char *id)
{
	size_t n = strlen(id);

	if (n == 0 || n > 64)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((id[i] >= 'a' && id[i] <= 'z') || (id[i] >= '0' && id[i] <= '9') ||
		      id[i] == '_' || id[i] == '-'))
			return false;
	return true;
}

sb_run_parser *sb_run_parser_new(void)
{
	sb_run_parser *p = calloc(1, sizeof *p);

	if (p == NULL)
		return NULL;
	sb_arena_json_install();
	p->sha = EVP_MD_CTX_new();
	p->arena = sb_arena_new(ARENA_BLOCK);
	if (p->sha == NULL || p->arena == NULL) {
		sb_run_parser_free(p);
		return NULL;
	}
	return p;
}

void sb_run_parser_free(sb_run_parser *p)
{
	if (p == NULL)
		return;
	sb_arena_free(p->arena);
	free(p->execs);
	free(p->tags);
	EVP_MD_CTX_free(p->sha);
	free(p);
}

/* True when key is one of keys. */
static bool known(const char *key, const char *const *keys)
{
	for (; *keys != NULL; keys++)
		if (strcmp(key, *keys) == 0)
			return true;
	return false;
}

/* A new object with the members of obj whose keys are not in keys, or
 * NULL when there are none.  New reference. */
static json_t *unknown_members(json_t *obj, const char *const *keys)
{
	json_t *extra = NULL;
	const char *key;
	json_t *value;

	json_object_foreach(obj, key, value) {
		if (known(key, keys))
			continue;
		if (extra == NULL && (extra = json_object()) == NULL)
			return NULL;
		json_object_set(extra, key, value);
	}
	return extra;
}

/* obj[key], or NULL; counts a member found in *seen, so that a caller
 * knows whether obj has members it did not ask for (json_object_size). */
static json_t *member(json_t *obj, const char *key, size_t *seen)
{
	json_t *v = json_object_get(obj, key);

	if (v != NULL)
		(*seen)++;
	return v;
}

/* Name of a JSON value's type, for messages. */
static const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

/* Read obj[key] as a string of 1..max bytes without NUL into *out (NULL
 * when absent or null and not required). */
static int get_string(json_t *obj, const char *key, const char *path, bool required,
                      size_t max, const char **out, size_t *seen, sb_err *e)
{
	json_t *v = member(obj, key, seen);
	size_t len;

	*out = NULL;
	if (v == NULL || json_is_null(v)) {
		if (required)
			return sb_fail(e, SB_EDATA, "%s%s is missing (required)", path, key);
		return SB_OK;
	}
	if (!json_is_string(v))
		return sb_fail(e, SB_EDATA, "%s%s must be a string, not %s", path, key, type_name(v));
	len = json_string_length(v);
	if (strlen(json_string_value(v)) != len)
		return sb_fail(e, SB_EDATA, "%s%s contains a NUL character", path, key);
	if (len == 0)
		return sb_fail(e, SB_EDATA, "%s%s is empty", path, key);
	if (len > max)
		return sb_fail(e, SB_EDATA, "%s%s is %zu bytes long, more than %zu", path, key, len, max);
	*out = json_string_value(v);
	return SB_OK;
}

/* Read obj[key] as a whole number into *out, 0 when absent: a counter
 * (negative refused) unless signed_ok (a duration: the SDK passes clock
 * skew through).  An integral real (3.0) is accepted; a fraction is not. */
static int get_integer(json_t *obj, const char *key, const char *path, bool signed_ok,
                       int64_t *out, size_t *seen, sb_err *e)
{
	json_t *v = member(obj, key, seen);

	*out = 0;
	if (v == NULL)
		return SB_OK;
	if (json_is_integer(v)) {
		json_int_t n = json_integer_value(v);
		if (n < 0 && !signed_ok)
			return sb_fail(e, SB_EDATA, "%s%s is negative (%lld)", path, key, (long long)n);
		*out = (int64_t)n;
		return SB_OK;
	}
	if (json_is_real(v)) {
		double d = json_real_value(v);
		if (d < 0 && !signed_ok)
			return sb_fail(e, SB_EDATA, "%s%s is negative (%.17g)", path, key, d);
		if (d != floor(d))
			return sb_fail(e, SB_EDATA, "%s%s must be a whole number, not %.17g", path, key, d);
		if (d >= 9223372036854775807.0 || d < -9223372036854775807.0)
			return sb_fail(e, SB_EDATA, "%s%s is too large (%.17g)", path, key, d);
		*out = (int64_t)d;
		return SB_OK;
	}
	if (signed_ok)
		return sb_fail(e, SB_EDATA, "%s%s must be an integer, not %s", path, key, type_name(v));
	return sb_fail(e, SB_EDATA, "%s%s must be a non-negative integer, not %s", path, key, type_name(v));
}

/* Read obj[key] as a counter (get_integer, negative refused). */
static int get_count(json_t *obj, const char *key, const char *path, int64_t *out,
                     size_t *seen, sb_err *e)
{
	return get_integer(obj, key, path, false, out, seen, e);
}

/* Read obj[key] as an amount in USD (a JSON number >= 0) into *nanos;
 * *has is false when absent or null, which is an error unless nullable.
 * A missing non-nullable amount is 0. */
static int get_amount(json_t *obj, const char *key, const char *path, bool nullable,
                      bool *has, int64_t *nanos, size_t *seen, sb_err *e)
{
	json_t *v = member(obj, key, seen);

	*has = false;
	*nanos = 0;
	if (v == NULL) {
		*has = !nullable;
		return SB_OK;
	}
	if (json_is_null(v)) {
		if (nullable)
			return SB_OK;
		return sb_fail(e, SB_EDATA, "%s%s must be a number, not null", path, key);
	}
	if (json_is_integer(v)) {
		json_int_t n = json_integer_value(v);
		if (n < 0)
			return sb_fail(e, SB_EDATA, "%s%s is negative (%lld)", path, key, (long long)n);
		if (__builtin_mul_overflow((int64_t)n, SB_NANOS_PER_USD, nanos))
			return sb_fail(e, SB_EDATA, "%s%s is too large (%lld)", path, key, (long long)n);
		*has = true;
		return SB_OK;
	}
	if (json_is_real(v)) {
		double d = json_real_value(v);
		if (d < 0)
			return sb_fail(e, SB_EDATA, "%s%s is negative (%.17g)", path, key, d);
		if (sb_money_from_double(d, nanos) != SB_MONEY_OK)
			return sb_fail(e, SB_EDATA, "%s%s is too large (%.17g)", path, key, d);
		*has = true;
		return SB_OK;
	}
	return sb_fail(e, SB_EDATA, "%s%s must be a number, not %s", path, key, type_name(v));
}

/* The end of the JSON string starting at text[i] (its opening quote):
 * the index just past its closing quote.  The text is valid JSON. */
static size_t skip_string(const char *text, size_t len, size_t i)
{
	for (i++; i < len && text[i] != '"'; i++)
		if (text[i] == '\\')
			i++;
	return i < len ? i + 1 : len;
}

/* The end of the JSON value starting at text[i]: a string, an object or
 * an array (nested, strings skipped whole), or a number or literal. */
static size_t skip_value(const char *text, size_t len, size_t i)
{
	size_t depth = 0;

	if (i < len && text[i] == '"')
		return skip_string(text, len, i);
	if (i < len && (text[i] == '{' || text[i] == '[')) {
		while (i < len) {
			char c = text[i];
			if (c == '"') {
				i = skip_string(text, len, i);
				continue;
			}
			if (c == '{' || c == '[')
				depth++;
			else if ((c == '}' || c == ']') && --depth == 0)
				return i + 1;
			i++;
		}
		return len;
	}
	while (i < len && strchr(",}] \t\r\n", text[i]) == NULL)
		i++;
	return i;
}

/* Whether the JSON string text[from, to) (quotes included) spells the
 * ASCII name: escapes decoded (a \u escape past ASCII matches nothing). */
static bool key_is(const char *text, size_t from, size_t to, const char *name)
{
	size_t i = from + 1, n = 0;

	to--;   /* the closing quote */
	while (i < to) {
		char c = text[i++];
		if (c == '\\' && i < to) {
			char x = text[i++];
			switch (x) {
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			case 'u': {
				unsigned code = 0;
				for (int k = 0; k < 4 && i < to; k++, i++) {
					char h = text[i];
					code = code * 16 + (unsigned)(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
				}
				if (code == 0 || code > 0x7f)
					return false;
				c = (char)code;
				break;
			}
			default: c = x; break;
			}
		}
		if (name[n] == '\0' || name[n] != c)
			return false;
		n++;
	}
	return name[n] == '\0';
}

/* The text of the top-level member name of the JSON object text[0, len)
 * (jansson has read it: it is valid, its keys unique) into
 * *value[0, *value_len).  False when there is no such member.  jansson
 * keeps numbers only as doubles; a time in Unix seconds is read from
 * this text, digit by digit, so that 1764381600.123 is 123 ms and not
 * the 122.99990... ms of the nearest double. */
static bool raw_member(const char *text, size_t len, const char *name, const char **value,
                       size_t *value_len)
{
	static const char ws[] = " \t\r\n";
	size_t i = 0;

	while (i < len && strchr(ws, text[i]) != NULL)
		i++;
	if (i >= len || text[i] != '{')
		return false;
	i++;
	for (;;) {
		size_t key_from, key_to, v;
		while (i < len && (strchr(ws, text[i]) != NULL || text[i] == ','))
			i++;
		if (i >= len || text[i] != '"')
			return false;
		key_from = i;
		key_to = i = skip_string(text, len, i);
		while (i < len && (strchr(ws, text[i]) != NULL || text[i] == ':'))
			i++;
		v = i;
		i = skip_value(text, len, i);
		if (key_is(text, key_from, key_to, name)) {
			*value = text + v;
			*value_len = i - v;
			return true;
		}
	}
}

/* The instant of the JSON number s[0, len), Unix seconds, as milliseconds:
 * the digits past the third decimal are dropped toward the earlier
 * millisecond, as in an RFC 3339 fraction (so -0.0005 s is -1 ms), and the
 * exponent is applied to the decimal digits, never through a double.
 * False when the instant is outside the calendar (sb_time_in_calendar). */
static bool unix_seconds_ms(const char *s, size_t len, int64_t *ms)
{
	const char *end = s + len, *p = s, *mant_end;
	bool neg = false, started = false, rest = false;
	int64_t n_int = 0, exp10 = 0, k = 0, used = 0, point;
	uint64_t whole = 0;

	if (p < end && *p == '-') {
		neg = true;
		p++;
	}
	for (mant_end = p; mant_end < end && *mant_end != 'e' && *mant_end != 'E'; mant_end++)
		;
	for (const char *q = p; q < mant_end && *q != '.'; q++)
		n_int++;   /* digits before the point */
	if (mant_end < end) {
		const char *x = mant_end + 1;
		bool exp_neg = x < end && *x == '-';
		if (x < end && (*x == '-' || *x == '+'))
			x++;
		for (; x < end && *x >= '0' && *x <= '9'; x++)
			if (exp10 < 1000000)
				exp10 = exp10 * 10 + (*x - '0');
		if (exp_neg)
			exp10 = -exp10;
	}
	/* the value is 0.DIGITS x 10^point, DIGITS the mantissa's digits */
	point = n_int + exp10;
	for (int64_t i = 0; p < mant_end; p++) {
		int d;
		if (*p == '.')
			continue;
		d = *p - '0';
		if (!started) {
			if (d == 0) {
				i++;
				continue;
			}
			/* the first significant digit, i-th of DIGITS: the whole
			 * milliseconds have k digits from here */
			started = true;
			k = point - i + 3;
			if (k > 19)
				return false;
		}
		if (used < k) {
			whole = whole * 10 + (uint64_t)d;
			used++;
		} else if (d != 0) {
			rest = true;
		}
	}
	if (started && k <= 0)
		rest = true;
	for (; started && used < k; used++)
		whole *= 10;
	if (whole > (uint64_t)INT64_MAX - 1)
		return false;
	*ms = neg ? -(int64_t)whole - (rest ? 1 : 0) : (int64_t)whole;
	return sb_time_in_calendar(*ms);
}

/* Read obj[key] (a member of the record text[0, len)) as an instant into
 * *ms: an RFC 3339 timestamp with offset, or a JSON number of Unix
 * seconds (what the SDK's time.time() gives).  *has is false when absent
 * or null (an error when required). */
static int get_time(json_t *obj, const char *key, const char *text, size_t len, bool required,
                    bool *has, int64_t *ms, size_t *seen, sb_err *e)
{
	json_t *v = json_object_get(obj, key);
	const char *value = NULL;
	size_t value_len = 0;
	int rc;

	*has = false;
	if (json_is_number(v)) {
		(*seen)++;
		if (!raw_member(text, len, key, &value, &value_len))
			return sb_fail(e, SB_EINTERNAL, "%s: the number's text was not found in the record", key);
		if (!unix_seconds_ms(value, value_len, ms))
			return sb_fail(e, SB_EDATA, "%s %.*s (Unix seconds) is not between the years 0000 and 9999",
			               key, (int)(value_len > 40 ? 40 : value_len), value);
		*has = true;
		return SB_OK;
	}
	if (v != NULL && !json_is_null(v) && !json_is_string(v)) {
		(*seen)++;
		return sb_fail(e, SB_EDATA, "%s must be an RFC 3339 string or a number of Unix seconds, not %s",
		               key, type_name(v));
	}
	if ((rc = get_string(obj, key, "", required, 64, &value, seen, e)) != SB_OK || value == NULL)
		return rc;
	switch (sb_time_parse(value, strlen(value), 0, ms)) {
	case SB_TIME_OK:
		*has = true;
		return SB_OK;
	case SB_TIME_NO_OFFSET:
		return sb_fail(e, SB_EDATA, "%s '%s' has no UTC offset (add Z or +hh:mm)", key, value);
	case SB_TIME_RANGE:
		return sb_fail(e, SB_EDATA, "%s '%s' is not a valid date and time", key, value);
	case SB_TIME_OUTSIDE:
		return sb_fail(e, SB_EDATA, "%s '%s' " SB_TIME_OUTSIDE_WORDS, key, value);
	default:
		return sb_fail(e, SB_EDATA, "%s '%s' is not an RFC 3339 timestamp", key, value);
	}
}

/* Make room for n executions. */
static bool reserve_execs(sb_run_parser *p, size_t n)
{
	sb_exec *execs;

	if (n <= p->execs_cap)
		return true;
	execs = realloc(p->execs, n * sizeof *execs);
	if (execs == NULL)
		return false;
	p->execs = execs;
	p->execs_cap = n;
	return true;
}

/* Dump v compactly with sorted keys, into the parser's arena (it is
 * entered while a record is parsed); NULL stays NULL. */
static const char *dump(json_t *v, bool *oom)
{
	char *text;

	if (v == NULL)
		return NULL;
	text = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	if (text == NULL)
		*oom = true;
	return text;
}

/* "sandbox_usage.executions[I]." into path (64 bytes), the prefix of
 * execution i's fields in messages; made for every execution, so without
 * snprintf. */
static void exec_path(char path[64], size_t i)
{
	static const char head[] = "sandbox_usage.executions[";
	char digits[24];
	size_t n = 0, at = sizeof head - 1;

	do {
		digits[n++] = (char)('0' + i % 10);
		i /= 10;
	} while (i > 0);
	memcpy(path, head, at);
	while (n > 0)
		path[at++] = digits[--n];
	memcpy(path + at, "].", 3);
}

/* Parse executions[i] into *x. */
static int parse_exec(json_t *obj, size_t i, sb_exec *x, bool *oom, sb_err *e)
{
	char path[64];
	json_t *v;
	json_t *extra;
	size_t seen = 0;

	exec_path(path, i);
	memset(x, 0, sizeof *x);
	if (!json_is_object(obj))
		return sb_fail(e, SB_EDATA, "sandbox_usage.executions[%zu] must be an object, not %s", i, type_name(obj));
	v = member(obj, "command", &seen);
	if (v != NULL && !json_is_null(v)) {
		if (!json_is_string(v))
			return sb_fail(e, SB_EDATA, "%scommand must be a string, not %s", path, type_name(v));
		x->command = json_string_value(v);
		x->command_len = json_string_length(v);
	}
	v = member(obj, "exit_code", &seen);
	if (v != NULL && !json_is_null(v)) {
		if (!json_is_integer(v))
			return sb_fail(e, SB_EDATA, "%sexit_code must be an integer, not %s", path, type_name(v));
		x->has_exit_code = true;
		x->exit_code = (int64_t)json_integer_value(v);
	}
	if (get_integer(obj, "duration_ms", path, true, &x->duration_ms, &seen, e) != SB_OK ||
	    get_count(obj, "cpu_ms", path, &x->cpu_ms, &seen, e) != SB_OK ||
	    get_count(obj, "memory_peak_mb", path, &x->memory_peak_mb, &seen, e) != SB_OK ||
	    get_count(obj, "bytes_read", path, &x->bytes_read, &seen, e) != SB_OK ||
	    get_count(obj, "bytes_written", path, &x->bytes_written, &seen, e) != SB_OK ||
	    get_amount(obj, "cost_usd", path, true, &x->has_cost, &x->cost_nanos, &seen, e) != SB_OK)
		return e->code;
	if (json_object_size(obj) > seen) {
		extra = unknown_members(obj, exec_keys);
		x->extra = dump(extra, oom);
	}
	return SB_OK;
}

/* Check the aggregates of usage against its executions (the SDK's
 * add_exec).  All of them listed (exec_count their number): each summed
 * counter is their sum, memory_peak_mb their maximum, computed_cost_usd
 * the sum of their non-null cost_usd within one nanodollar per execution.
 * Fewer listed than exec_count (the __add__ of a summary-only usage and a
 * detailed one): the aggregates are the record's and the listed ones
 * must not exceed them, computed_cost_usd with the same tolerance. */
static int check_aggregates(const sb_run *run, sb_err *e)
{
	int64_t dur = 0, cpu = 0, rd = 0, wr = 0, mem = 0, cost = 0, diff;
	size_t n = run->n_execs;
	bool partly = (int64_t)n < run->exec_count;
	/* "the executions' durations add up to", "the executions listed
	 * have durations adding up to" */
	const char *whose = partly ? "the executions listed have" : "the executions'";
	const char *add_up = partly ? "adding up to" : "add up to";
	const char *more = partly ? ", more" : "";

	if ((int64_t)n > run->exec_count)
		return sb_fail(e, SB_EDATA, "sandbox_usage.exec_count is %lld but executions has %zu %s",
		               (long long)run->exec_count, n, n == 1 ? "entry" : "entries");
	for (size_t i = 0; i < n; i++) {
		const sb_exec *x = &run->execs[i];
		if (__builtin_add_overflow(dur, x->duration_ms, &dur) ||
		    __builtin_add_overflow(cpu, x->cpu_ms, &cpu) ||
		    __builtin_add_overflow(rd, x->bytes_read, &rd) ||
		    __builtin_add_overflow(wr, x->bytes_written, &wr) ||
		    (x->has_cost && __builtin_add_overflow(cost, x->cost_nanos, &cost)))
			return sb_fail(e, SB_EDATA, "sandbox_usage.executions: a sum overflows 64 bits");
		if (x->memory_peak_mb > mem)
			mem = x->memory_peak_mb;
	}
	/* a partly detailed record: every listed sum within the record's */
	if (partly ? dur > run->total_duration_ms : dur != run->total_duration_ms)
		return sb_fail(e, SB_EDATA, "sandbox_usage.total_duration_ms is %lld but %s durations %s %lld%s",
		               (long long)run->total_duration_ms, whose, add_up, (long long)dur, more);
	if (partly ? cpu > run->cpu_ms : cpu != run->cpu_ms)
		return sb_fail(e, SB_EDATA, "sandbox_usage.cpu_ms is %lld but %s cpu_ms %s %lld%s",
		               (long long)run->cpu_ms, whose, add_up, (long long)cpu, more);
	if (partly ? rd > run->bytes_read : rd != run->bytes_read)
		return sb_fail(e, SB_EDATA, "sandbox_usage.bytes_read is %lld but %s bytes_read %s %lld%s",
		               (long long)run->bytes_read, whose, add_up, (long long)rd, more);
	if (partly ? wr > run->bytes_written : wr != run->bytes_written)
		return sb_fail(e, SB_EDATA, "sandbox_usage.bytes_written is %lld but %s bytes_written %s %lld%s",
		               (long long)run->bytes_written, whose, add_up, (long long)wr, more);
	if (partly ? mem > run->memory_peak_mb : mem != run->memory_peak_mb)
		return sb_fail(e, SB_EDATA, "sandbox_usage.memory_peak_mb is %lld but %s %lld%s",
		               (long long)run->memory_peak_mb, partly ? "the executions listed peak at" : "the executions' peak is",
		               (long long)mem, more);
	if (__builtin_sub_overflow(run->computed_nanos, cost, &diff))
		diff = INT64_MAX;
	if (partly ? diff < -(int64_t)n : diff > (int64_t)n || diff < -(int64_t)n) {
		char a[SB_MONEY_BUFSZ], b[SB_MONEY_BUFSZ];
		return sb_fail(e, SB_EDATA, "sandbox_usage.computed_cost_usd is %s but %s cost_usd %s %s%s",
		               sb_money_format(run->computed_nanos, 9, a), whose, add_up, sb_money_format(cost, 9, b),
		               partly ? ", over it by more than one nanodollar per execution listed" : "");
	}
	return SB_OK;
}

/* Parse the tags object into run (values: strings as they are, numbers and
 * booleans as their JSON text). */
static int parse_tags(sb_run_parser *p, json_t *tags, sb_run *run, bool *oom, sb_err *e)
{
	const char *key;
	json_t *v;
	size_t n = 0;

	if (tags == NULL || json_is_null(tags))
		return SB_OK;
	if (!json_is_object(tags))
		return sb_fail(e, SB_EDATA, "tags must be an object, not %s", type_name(tags));
	if (json_object_size(tags) > p->tags_cap) {
		size_t cap = json_object_size(tags);
		sb_tag *t = realloc(p->tags, cap * sizeof *t);
		if (t == NULL) {
			*oom = true;
			return SB_OK;
		}
		p->tags = t;
		p->tags_cap = cap;
	}
	json_object_foreach(tags, key, v) {
		const char *value;
		if (strlen(key) == 0)
			return sb_fail(e, SB_EDATA, "tags has an empty tag name");
		if (json_is_null(v))
			continue;
		if (json_is_string(v)) {
			if (strlen(json_string_value(v)) != json_string_length(v))
				return sb_fail(e, SB_EDATA, "tags.%s contains a NUL character", key);
			value = json_string_value(v);
		} else if (json_is_object(v) || json_is_array(v)) {
			return sb_fail(e, SB_EDATA, "tags.%s must be a string, not %s", key, type_name(v));
		} else {
			value = dump(v, oom);
			if (value == NULL)
				return SB_OK;
		}
		p->tags[n].name = key;
		p->tags[n].value = value;
		n++;
	}
	run->tags = p->tags;
	run->n_tags = n;
	run->tags_json = dump(tags, oom);
	return SB_OK;
}

/* Parse token_usage into run; unknown members go to *extra_tokens. */
static int parse_tokens(json_t *tu, sb_run *run, json_t **extra_tokens, sb_err *e)
{
	size_t seen = 0;

	*extra_tokens = NULL;
	if (tu == NULL || json_is_null(tu))
		return SB_OK;
	if (!json_is_object(tu))
		return sb_fail(e, SB_EDATA, "token_usage must be an object, not %s", type_name(tu));
	if (get_string(tu, "model", "token_usage.", false, 256, &run->model, &seen, e) != SB_OK ||
	    get_count(tu, "input_tokens", "token_usage.", &run->input_tokens, &seen, e) != SB_OK ||
	    get_count(tu, "output_tokens", "token_usage.", &run->output_tokens, &seen, e) != SB_OK)
		return e->code;
	if (json_object_size(tu) > seen)
		*extra_tokens = unknown_members(tu, token_keys);
	return SB_OK;
}

/* The bytes of the normalized record on their way to SHA-256, gathered
 * so that the digest is fed a few large pieces rather than a hundred small
 * ones (the bytes hashed, so the fingerprint, are the same). */
typedef struct fp_buf {
	EVP_MD_CTX *sha;           /* the digest */
	size_t len;                /* bytes waiting in buf */
	unsigned char buf[4096];   /* bytes not yet fed */
} fp_buf;

/* Feed n bytes at data to the fingerprint. */
static void fp_bytes(fp_buf *f, const void *data, size_t n)
{
	if (f->len + n > sizeof f->buf) {
		EVP_DigestUpdate(f->sha, f->buf, f->len);
		f->len = 0;
		if (n > sizeof f->buf) {
			EVP_DigestUpdate(f->sha, data, n);
			return;
		}
	}
	memcpy(f->buf + f->len, data, n);
	f->len += n;
}

/* Feed a value of the normalized record to the fingerprint. */
static void fp_i64(fp_buf *f, bool has, int64_t v)
{
	unsigned char b[9];

	b[0] = has ? 1 : 0;
	for (int i = 0; i < 8; i++)
		b[1 + i] = (unsigned char)((uint64_t)v >> (8 * i));
	fp_bytes(f, b, has ? sizeof b : 1);
}

/* Feed a string (or its absence) to the fingerprint. */
static void fp_str(fp_buf *f, const char *s, size_t len)
{
	fp_i64(f, s != NULL, (int64_t)len);
	if (s != NULL)
		fp_bytes(f, s, len);
}

/* Feed a NUL-terminated string (or NULL) to the fingerprint. */
static void fp_cstr(fp_buf *f, const char *s)
{
	fp_str(f, s, s != NULL ? strlen(s) : 0);
}

/* The fingerprint of the normalized record: equal for records the ledger
 * cannot tell apart (the same values at nanodollar resolution, whatever
 * the key order or number spelling).  False when libcrypto could not set
 * up the digest (out of memory). */
static bool fingerprint(sb_run_parser *p, sb_run *run)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int md_len = 0;
	fp_buf buf, *sha = &buf;

	buf.sha = p->sha;
	buf.len = 0;
	if (EVP_DigestInit_ex(p->sha, EVP_sha256(), NULL) != 1)
		return false;
	fp_cstr(sha, run->run_id);
	fp_cstr(sha, run->backend);
	fp_cstr(sha, run->session_id);
	fp_cstr(sha, run->plan);
	fp_i64(sha, true, run->started_ms);
	fp_i64(sha, run->has_ended, run->ended_ms);
	fp_cstr(sha, run->model);
	fp_i64(sha, true, run->input_tokens);
	fp_i64(sha, true, run->output_tokens);
	fp_i64(sha, run->has_budget, run->budget_nanos);
	fp_i64(sha, true, run->exec_count);
	fp_i64(sha, true, run->total_duration_ms);
	fp_i64(sha, true, run->cpu_ms);
	fp_i64(sha, true, run->memory_peak_mb);
	fp_i64(sha, true, run->bytes_read);
	fp_i64(sha, true, run->bytes_written);
	fp_i64(sha, true, run->computed_nanos);
	fp_i64(sha, run->has_billed, run->billed_nanos);
	fp_i64(sha, true, (int64_t)run->n_execs);
	for (size_t i = 0; i < run->n_execs; i++) {
		const sb_exec *x = &run->execs[i];
		fp_str(sha, x->command, x->command_len);
		fp_i64(sha, x->has_exit_code, x->exit_code);
		fp_i64(sha, true, x->duration_ms);
		fp_i64(sha, true, x->cpu_ms);
		fp_i64(sha, true, x->memory_peak_mb);
		fp_i64(sha, true, x->bytes_read);
		fp_i64(sha, true, x->bytes_written);
		fp_i64(sha, x->has_cost, x->cost_nanos);
		fp_cstr(sha, x->extra);
	}
	fp_cstr(sha, run->tags_json);
	fp_cstr(sha, run->extra);
	if (EVP_DigestUpdate(p->sha, buf.buf, buf.len) != 1 ||
	    EVP_DigestFinal_ex(p->sha, md, &md_len) != 1 || md_len != 32)
		return false;
	for (unsigned int i = 0; i < md_len; i++) {
		static const char hex[] = "0123456789abcdef";
		run->fingerprint[2 * i] = hex[md[i] >> 4];
		run->fingerprint[2 * i + 1] = hex[md[i] & 15];
	}
	run->fingerprint[64] = '\0';
	return true;
}

/* Parse sandbox_usage into run. */
static int parse_usage(sb_run_parser *p, json_t *su, sb_run *run, json_t **extra_usage,
                       bool *oom, sb_err *e)
{
	const char *path = "sandbox_usage.";
	json_t *execs;
	bool has;
	size_t seen = 0;

	if (su == NULL)
		return sb_fail(e, SB_EDATA, "sandbox_usage is missing (required)");
	if (json_is_null(su))
		return SB_OK;   /* a run that used no sandbox: every counter 0 */
	if (!json_is_object(su))
		return sb_fail(e, SB_EDATA, "sandbox_usage must be an object, not %s", type_name(su));
	if (get_count(su, "exec_count", path, &run->exec_count, &seen, e) != SB_OK ||
	    get_integer(su, "total_duration_ms", path, true, &run->total_duration_ms, &seen, e) != SB_OK ||
	    get_count(su, "cpu_ms", path, &run->cpu_ms, &seen, e) != SB_OK ||
	    get_count(su, "memory_peak_mb", path, &run->memory_peak_mb, &seen, e) != SB_OK ||
	    get_count(su, "bytes_read", path, &run->bytes_read, &seen, e) != SB_OK ||
	    get_count(su, "bytes_written", path, &run->bytes_written, &seen, e) != SB_OK ||
	    get_amount(su, "computed_cost_usd", path, false, &has, &run->computed_nanos, &seen, e) != SB_OK ||
	    get_amount(su, "billed_cost_usd", path, true, &run->has_billed, &run->billed_nanos, &seen, e) != SB_OK)
		return e->code;
	execs = member(su, "executions", &seen);
	if (json_object_size(su) > seen)
		*extra_usage = unknown_members(su, usage_keys);
	if (execs != NULL && !json_is_null(execs)) {
		size_t n;
		if (!json_is_array(execs))
			return sb_fail(e, SB_EDATA, "sandbox_usage.executions must be an array, not %s", type_name(execs));
		n = json_array_size(execs);
		if (!reserve_execs(p, n)) {
			*oom = true;
			return SB_OK;
		}
		for (size_t i = 0; i < n; i++)
			if (parse_exec(json_array_get(execs, i), i, &p->execs[i], oom, e) != SB_OK)
				return e->code;
		run->execs = p->execs;
		run->n_execs = n;
	}
	if (run->n_execs > 0)
		return check_aggregates(run, e);
	if (run->total_duration_ms < 0)
		return sb_fail(e, SB_EDATA, "sandbox_usage.total_duration_ms is negative (%lld) and no executions are listed",
		               (long long)run->total_duration_ms);
	return SB_OK;
}

/* The unknown fields of the record as one object: top-level members as
 * they are (root_extra: root has members beyond those it was asked for),
 * unknown members of sandbox_usage and token_usage under those keys.  NULL
 * when there are none. */
static json_t *collect_extra(json_t *root, bool root_extra, json_t *extra_usage,
                             json_t *extra_tokens)
{
	json_t *extra = root_extra ? unknown_members(root, run_keys) : NULL;

	if ((extra_usage != NULL || extra_tokens != NULL) && extra == NULL)
		extra = json_object();
	if (extra != NULL && extra_usage != NULL)
		json_object_set(extra, "sandbox_usage", extra_usage);
	if (extra != NULL && extra_tokens != NULL)
		json_object_set(extra, "token_usage", extra_tokens);
	return extra;
}

/* A copy of the NUL-terminated s in a (NULL stays NULL); *oom set when
 * out of memory. */
static const char *keep_str(sb_arena *a, const char *s, bool *oom)
{
	char *copy;

	if (s == NULL)
		return NULL;
	if ((copy = sb_arena_strndup(a, s, strlen(s))) == NULL)
		*oom = true;
	return copy;
}

int sb_run_keep(const sb_run *run, sb_arena *a, sb_run **out, sb_err *e)
{
	sb_run *r = sb_arena_alloc(a, sizeof *r);
	sb_exec *execs = NULL;
	sb_tag *tags = NULL;
	bool oom = r == NULL;

	*out = NULL;
	if (!oom && run->n_execs > 0 && (execs = sb_arena_alloc(a, run->n_execs * sizeof *execs)) == NULL)
		oom = true;
	if (!oom && run->n_tags > 0 && (tags = sb_arena_alloc(a, run->n_tags * sizeof *tags)) == NULL)
		oom = true;
	if (oom)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	*r = *run;
	r->run_id = keep_str(a, run->run_id, &oom);
	r->backend = keep_str(a, run->backend, &oom);
	r->session_id = keep_str(a, run->session_id, &oom);
	r->plan = keep_str(a, run->plan, &oom);
	r->model = keep_str(a, run->model, &oom);
	r->tags_json = keep_str(a, run->tags_json, &oom);
	r->extra = keep_str(a, run->extra, &oom);
	if (run->execs_json != NULL &&
	    (r->execs_json = sb_arena_strndup(a, run->execs_json, run->execs_json_len)) == NULL)
		oom = true;
	for (size_t i = 0; i < run->n_execs && !oom; i++) {
		const sb_exec *x = &run->execs[i];
		execs[i] = *x;
		if (x->command != NULL && (execs[i].command = sb_arena_strndup(a, x->command, x->command_len)) == NULL)
			oom = true;
		execs[i].extra = keep_str(a, x->extra, &oom);
	}
	for (size_t i = 0; i < run->n_tags && !oom; i++) {
		tags[i].name = keep_str(a, run->tags[i].name, &oom);
		tags[i].value = keep_str(a, run->tags[i].value, &oom);
	}
	r->execs = execs;
	r->tags = tags;
	if (oom)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	*out = r;
	return SB_OK;
}

/* The executions of run as the ledger stores them (sb_execs_json), made
 * here so that a parsing thread does it rather than the writer, in the
 * parser's arena; false when out of memory. */
static bool execs_text(sb_run_parser *p, sb_run *run)
{
	char *text;

	if (run->n_execs == 0)
		return true;
	text = sb_arena_alloc(p->arena, sb_execs_json_max(run->execs, run->n_execs) + 1);
	if (text == NULL)
		return false;
	run->execs_json_len = sb_execs_json(run->execs, run->n_execs, text);
	run->execs_json = text;
	return true;
}

/* sb_run_parse with the parser's arena entered: every JSON value made
 * here dies with the arena's next reset, so none is freed. */
static int parse(sb_run_parser *p, const char *text, size_t len, sb_run *run, sb_err *e)
{
	json_error_t jerr;
	json_t *root, *extra_usage = NULL, *extra_tokens = NULL;
	const char *backend = NULL;
	bool oom = false, has_start;
	size_t seen = 0;

	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (root == NULL)
		return sb_fail(e, SB_EDATA, "not valid JSON: %s (column %d)", jerr.text, jerr.column);
	if (!json_is_object(root))
		return sb_fail(e, SB_EDATA, "not a JSON object but %s (one run record per line)", type_name(root));
	if (get_string(root, "run_id", "", true, 256, &run->run_id, &seen, e) != SB_OK ||
	    get_string(root, "backend", "", true, 64, &backend, &seen, e) != SB_OK)
		return e->code;
	run->backend = sb_backend_from_sdk(backend);
	if (!sb_backend_id_valid(run->backend))
		return sb_fail(e, SB_EDATA, "backend %s is not a backend id ([a-z0-9_-], at most 64) nor an SDK client class",
		               sb_quote(backend, SB_QUOTE_ALWAYS, (char[SB_QUOTE_BUFSZ]){0}, SB_QUOTE_BUFSZ));
	if (get_string(root, "session_id", "", false, 256, &run->session_id, &seen, e) != SB_OK ||
	    get_string(root, "plan", "", false, 128, &run->plan, &seen, e) != SB_OK ||
	    get_time(root, "started_at", text, len, true, &has_start, &run->started_ms, &seen, e) != SB_OK ||
	    get_time(root, "ended_at", text, len, false, &run->has_ended, &run->ended_ms, &seen, e) != SB_OK)
		return e->code;
	if (run->has_ended && run->ended_ms < run->started_ms)
		return sb_fail(e, SB_EDATA, "ended_at precedes started_at");
	if (parse_tags(p, member(root, "tags", &seen), run, &oom, e) != SB_OK ||
	    parse_tokens(member(root, "token_usage", &seen), run, &extra_tokens, e) != SB_OK ||
	    get_amount(root, "budget_usd", "", true, &run->has_budget, &run->budget_nanos, &seen, e) != SB_OK ||
	    parse_usage(p, member(root, "sandbox_usage", &seen), run, &extra_usage, &oom, e) != SB_OK)
		return e->code;
	run->extra = dump(collect_extra(root, json_object_size(root) > seen, extra_usage, extra_tokens),
	                  &oom);
	if (oom || !fingerprint(p, run) || !execs_text(p, run))
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	return SB_OK;
}

int sb_run_parse(sb_run_parser *p, const char *text, size_t len, sb_run *run, sb_err *e)
{
	sb_arena *prev;
	int rc;
	unsigned long failures = sb_arena_json_failures();

	sb_arena_reset(p->arena);
	memset(run, 0, sizeof *run);
	prev = sb_arena_json_enter(p->arena);
	rc = parse(p, text, len, run, e);
	sb_arena_json_leave(prev);
	if (sb_arena_json_failures() != failures) {
		/* not bad data: jansson ran out of memory (see arena.h) */
		sb_err_clear(e);
		rc = sb_fail(e, SB_EINTERNAL, "out of memory (reading JSON)");
	}
	return rc;
}
