/* runs_jsonl.c: parse and validate run-usage records (see runs_jsonl.h).
 *
 * A line is read as events (importers/json_in.h, YAJL): each known field
 * lands in its slot of a raw record as it is met, a number as its text,
 * so that amounts, counts and times come from their digits (amounts by
 * sb_money_parse, the CSV path's parser); the rules are then checked in
 * a fixed order over the slots.  Only tags and unknown members are built
 * as jansson values, to be stored as JSON text as before.
 *
 * Longer than 600 lines on purpose: it is the format's rules, field by
 * field (docs/formats-runs.md), each a few lines over one parsed record
 * and the parser's helpers; read in one place they are the format, and
 * a split by field would scatter one record's checks over files.
 */
#include "importers/runs_jsonl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <openssl/evp.h>

#include "importers/arena.h"
#include "importers/json_in.h"
#include "ledger/money.h"
#include "ledger/quote.h"
#include "ledger/timefmt.h"

enum { ARENA_BLOCK = 64 * 1024 };


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

/* The kind of a value of the record as the parser met it. */
enum vkind { V_ABSENT = 0, V_NULL, V_BOOL, V_INT, V_REAL, V_STRING, V_OBJECT, V_ARRAY };

/* A field of the record: its kind and, for a number or a string, its
 * text (a number as written, a string decoded), in the parser's arena
 * with a NUL after it. */
typedef struct jval {
	enum vkind kind;   /* V_ABSENT when the record has no such member */
	const char *s;     /* V_INT, V_REAL, V_STRING: the text */
	size_t len;        /* its length */
} jval;

/* Indexes of the known fields, in the order of the key lists above. */
enum { R_RUN_ID, R_BACKEND, R_SESSION_ID, R_PLAN, R_STARTED_AT, R_ENDED_AT, R_TAGS,
       R_TOKEN_USAGE, R_BUDGET_USD, R_SANDBOX_USAGE, R_COUNT };
enum { U_EXEC_COUNT, U_TOTAL_DURATION_MS, U_CPU_MS, U_MEMORY_PEAK_MB, U_BYTES_READ,
       U_BYTES_WRITTEN, U_COMPUTED_COST_USD, U_BILLED_COST_USD, U_EXECUTIONS, U_COUNT };
enum { X_COMMAND, X_EXIT_CODE, X_DURATION_MS, X_CPU_MS, X_MEMORY_PEAK_MB, X_BYTES_READ,
       X_BYTES_WRITTEN, X_COST_USD, X_COUNT };
enum { T_MODEL, T_INPUT_TOKENS, T_OUTPUT_TOKENS, T_COUNT };

/* One element of sandbox_usage.executions as met. */
typedef struct raw_exec {
	enum vkind kind;   /* V_OBJECT, or what the element was instead */
	jval f[X_COUNT];   /* its known fields */
	json_t *extra;     /* its unknown members, NULL when none */
} raw_exec;

/* The record as met, before its rules are checked. */
typedef struct raw_run {
	enum vkind root;        /* the kind of the line's value */
	jval f[R_COUNT];        /* top-level fields */
	jval u[U_COUNT];        /* sandbox_usage's fields */
	jval t[T_COUNT];        /* token_usage's fields */
	json_t *tags;           /* the tags object, when tags is one */
	json_t *extra;          /* unknown top-level members */
	json_t *extra_usage;    /* unknown members of sandbox_usage */
	json_t *extra_tokens;   /* unknown members of token_usage */
	size_t n_execs;         /* executions met (in the parser's raw_execs) */
} raw_run;

/* What the events at one level of nesting go to. */
enum lkind {
	L_TOP,      /* the line itself, before its value */
	L_ROOT,     /* the record object */
	L_USAGE,    /* sandbox_usage */
	L_TOKENS,   /* token_usage */
	L_EXECS,    /* sandbox_usage.executions */
	L_EXEC,     /* one execution */
	L_BUILD,    /* a value kept whole (tags, unknown members): built in jansson */
	L_SKIP      /* a value only its kind matters of (a known field of the wrong kind) */
};

/* One level of the parse. */
typedef struct level {
	enum lkind kind;          /* see enum lkind */
	jval *slots;              /* L_ROOT, L_USAGE, L_TOKENS, L_EXEC: the known fields */
	const char *const *keys;  /* and their names */
	json_t **extra;           /* where unknown members go */
	json_t *build;            /* L_BUILD: the object or array being built */
	int key;                  /* the pending key's index in keys, -1 when unknown */
	const char *ukey;         /* the pending key's text when unknown (or in L_BUILD) */
} level;

struct sb_run_parser {
	sb_arena *arena;       /* the line's JSON values and texts, reset per line */
	sb_exec *execs;        /* executions of the current record */
	size_t execs_cap;      /* allocated entries */
	sb_tag *tags;          /* tags of the current record */
	size_t tags_cap;       /* allocated entries */
	EVP_MD_CTX *sha;       /* for the fingerprint */
	sb_json_in *json;      /* the JSON reader */
	raw_run raw;           /* the current line as met */
	raw_exec *raw_execs;   /* its executions as met */
	size_t raw_execs_cap;  /* allocated entries */
	level *stack;          /* the levels open in the line */
	size_t depth;          /* how many */
	size_t stack_cap;      /* allocated entries */
	sb_err *e;             /* the line's error */
};

sb_run_parser *sb_run_parser_new(void)
{
	sb_run_parser *p = calloc(1, sizeof *p);

	if (p == NULL)
		return NULL;
	sb_arena_json_install();
	p->sha = EVP_MD_CTX_new();
	p->arena = sb_arena_new(ARENA_BLOCK);
	p->json = sb_json_in_new();
	p->stack_cap = 16;
	p->stack = malloc(p->stack_cap * sizeof *p->stack);
	if (p->sha == NULL || p->arena == NULL || p->json == NULL || p->stack == NULL) {
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
	free(p->raw_execs);
	free(p->stack);
	sb_json_in_free(p->json);
	EVP_MD_CTX_free(p->sha);
	free(p);
}

/* Name of a value's kind, for messages. */
static const char *kind_name(enum vkind k)
{
	switch (k) {
	case V_OBJECT: return "an object";
	case V_ARRAY: return "an array";
	case V_STRING: return "a string";
	case V_INT: return "an integer";
	case V_REAL: return "a number";
	case V_BOOL: return "a boolean";
	default: return "null";
	}
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

/* How much of a number's text a message shows. */
#define SHOWN(v) (int)((v)->len > 40 ? 40 : (v)->len), (v)->s

/* Read v as a string of 1..max bytes without NUL into *out (NULL when
 * absent or null and not required). */
static int get_string(const jval *v, const char *key, const char *path, bool required,
                      size_t max, const char **out, sb_err *e)
{
	*out = NULL;
	if (v->kind == V_ABSENT || v->kind == V_NULL) {
		if (required)
			return sb_fail(e, SB_EDATA, "%s%s is missing (required)", path, key);
		return SB_OK;
	}
	if (v->kind != V_STRING)
		return sb_fail(e, SB_EDATA, "%s%s must be a string, not %s", path, key, kind_name(v->kind));
	if (v->len == 0)
		return sb_fail(e, SB_EDATA, "%s%s is empty", path, key);
	if (v->len > max)
		return sb_fail(e, SB_EDATA, "%s%s is %zu bytes long, more than %zu", path, key, v->len, max);
	*out = v->s;
	return SB_OK;
}

/* The integer literal s[0..len) (JSON's grammar: optional '-', digits)
 * into *out; false when it does not fit in int64.  "-0" is 0. */
static bool int_text(const char *s, size_t len, int64_t *out)
{
	bool neg = len > 0 && s[0] == '-';
	uint64_t v = 0;

	for (size_t i = neg ? 1 : 0; i < len; i++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (neg) {
		if (v > (uint64_t)INT64_MAX + 1)
			return false;
		*out = v == 0 ? 0 : -(int64_t)(v - 1) - 1;
	} else {
		if (v > (uint64_t)INT64_MAX)
			return false;
		*out = (int64_t)v;
	}
	return true;
}

/* Read v as a whole number into *out, 0 when absent: a counter (negative
 * refused) unless signed_ok (a duration: the SDK passes clock skew
 * through).  Only an integer literal is one: 3.0 and 3E0 are refused. */
static int get_integer(const jval *v, const char *key, const char *path, bool signed_ok,
                       int64_t *out, sb_err *e)
{
	*out = 0;
	if (v->kind == V_ABSENT)
		return SB_OK;
	if (v->kind == V_INT) {
		int64_t n;
		if (!int_text(v->s, v->len, &n))
			return sb_fail(e, SB_EDATA, "%s%s is too large (%.*s)", path, key, SHOWN(v));
		if (n < 0 && !signed_ok)
			return sb_fail(e, SB_EDATA, "%s%s is negative (%lld)", path, key, (long long)n);
		*out = n;
		return SB_OK;
	}
	if (v->kind == V_REAL)
		return sb_fail(e, SB_EDATA, "%s%s must be a whole number written as an integer (no fraction, no exponent), not %.*s",
		               path, key, SHOWN(v));
	if (signed_ok)
		return sb_fail(e, SB_EDATA, "%s%s must be an integer, not %s", path, key, kind_name(v->kind));
	return sb_fail(e, SB_EDATA, "%s%s must be a non-negative integer, not %s", path, key, kind_name(v->kind));
}

/* Read v as a counter (get_integer, negative refused). */
static int get_count(const jval *v, const char *key, const char *path, int64_t *out, sb_err *e)
{
	return get_integer(v, key, path, false, out, e);
}

/* Read v as an amount in USD (a JSON number >= 0) into *nanos, from its
 * decimal text by sb_money_parse (digits past the ninth decimal rounded
 * half to even there; "-0" is 0); *has is false when absent or null, which
 * is an error unless nullable.  A missing non-nullable amount is 0. */
static int get_amount(const jval *v, const char *key, const char *path, bool nullable,
                      bool *has, int64_t *nanos, sb_err *e)
{
	int rc;

	*has = false;
	*nanos = 0;
	if (v->kind == V_ABSENT) {
		*has = !nullable;
		return SB_OK;
	}
	if (v->kind == V_NULL) {
		if (nullable)
			return SB_OK;
		return sb_fail(e, SB_EDATA, "%s%s must be a number, not null", path, key);
	}
	if (v->kind != V_INT && v->kind != V_REAL)
		return sb_fail(e, SB_EDATA, "%s%s must be a number, not %s", path, key, kind_name(v->kind));
	rc = sb_money_parse(v->s, v->len, nanos);
	if (rc == SB_MONEY_OK && *nanos < 0)
		return sb_fail(e, SB_EDATA, "%s%s is negative (%.*s)", path, key, SHOWN(v));
	if (rc != SB_MONEY_OK) {
		*nanos = 0;
		if (v->s[0] == '-')
			return sb_fail(e, SB_EDATA, "%s%s is negative (%.*s)", path, key, SHOWN(v));
		return sb_fail(e, SB_EDATA, "%s%s is too large (%.*s)", path, key, SHOWN(v));
	}
	*has = true;
	return SB_OK;
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

/* Read v as an instant into *ms: an RFC 3339 timestamp with offset, or a
 * JSON number of Unix seconds (what the SDK's time.time() gives), read
 * from its text.  *has is false when absent or null (an error when
 * required). */
static int get_time(const jval *v, const char *key, bool required, bool *has, int64_t *ms,
                    sb_err *e)
{
	const char *value = NULL;
	int rc;

	*has = false;
	if (v->kind == V_INT || v->kind == V_REAL) {
		if (!unix_seconds_ms(v->s, v->len, ms))
			return sb_fail(e, SB_EDATA, "%s %.*s (Unix seconds) is not between the years 0000 and 9999",
			               key, SHOWN(v));
		*has = true;
		return SB_OK;
	}
	if (v->kind != V_ABSENT && v->kind != V_NULL && v->kind != V_STRING)
		return sb_fail(e, SB_EDATA, "%s must be an RFC 3339 string or a number of Unix seconds, not %s",
		               key, kind_name(v->kind));
	if ((rc = get_string(v, key, "", required, 64, &value, e)) != SB_OK || value == NULL)
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
static int parse_exec(const raw_exec *r, size_t i, sb_exec *x, bool *oom, sb_err *e)
{
	char path[64];
	const jval *v;

	exec_path(path, i);
	memset(x, 0, sizeof *x);
	if (r->kind != V_OBJECT)
		return sb_fail(e, SB_EDATA, "sandbox_usage.executions[%zu] must be an object, not %s", i, kind_name(r->kind));
	v = &r->f[X_COMMAND];
	if (v->kind != V_ABSENT && v->kind != V_NULL) {
		if (v->kind != V_STRING)
			return sb_fail(e, SB_EDATA, "%scommand must be a string, not %s", path, kind_name(v->kind));
		x->command = v->s;
		x->command_len = v->len;
	}
	v = &r->f[X_EXIT_CODE];
	if (v->kind != V_ABSENT && v->kind != V_NULL) {
		if (v->kind != V_INT)
			return sb_fail(e, SB_EDATA, "%sexit_code must be an integer, not %s", path, kind_name(v->kind));
		if (!int_text(v->s, v->len, &x->exit_code))
			return sb_fail(e, SB_EDATA, "%sexit_code is too large (%.*s)", path, SHOWN(v));
		x->has_exit_code = true;
	}
	if (get_integer(&r->f[X_DURATION_MS], "duration_ms", path, true, &x->duration_ms, e) != SB_OK ||
	    get_count(&r->f[X_CPU_MS], "cpu_ms", path, &x->cpu_ms, e) != SB_OK ||
	    get_count(&r->f[X_MEMORY_PEAK_MB], "memory_peak_mb", path, &x->memory_peak_mb, e) != SB_OK ||
	    get_count(&r->f[X_BYTES_READ], "bytes_read", path, &x->bytes_read, e) != SB_OK ||
	    get_count(&r->f[X_BYTES_WRITTEN], "bytes_written", path, &x->bytes_written, e) != SB_OK ||
	    get_amount(&r->f[X_COST_USD], "cost_usd", path, true, &x->has_cost, &x->cost_nanos, e) != SB_OK)
		return e->code;
	x->extra = dump(r->extra, oom);
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
static int parse_tags(sb_run_parser *p, const jval *tv, json_t *tags, sb_run *run, bool *oom, sb_err *e)
{
	const char *key;
	json_t *v;
	size_t n = 0;

	if (tv->kind == V_ABSENT || tv->kind == V_NULL)
		return SB_OK;
	if (tv->kind != V_OBJECT)
		return sb_fail(e, SB_EDATA, "tags must be an object, not %s", kind_name(tv->kind));
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

/* Parse token_usage into run. */
static int parse_tokens(const raw_run *r, sb_run *run, sb_err *e)
{
	enum vkind k = r->f[R_TOKEN_USAGE].kind;

	if (k == V_ABSENT || k == V_NULL)
		return SB_OK;
	if (k != V_OBJECT)
		return sb_fail(e, SB_EDATA, "token_usage must be an object, not %s", kind_name(k));
	if (get_string(&r->t[T_MODEL], "model", "token_usage.", false, 256, &run->model, e) != SB_OK ||
	    get_count(&r->t[T_INPUT_TOKENS], "input_tokens", "token_usage.", &run->input_tokens, e) != SB_OK ||
	    get_count(&r->t[T_OUTPUT_TOKENS], "output_tokens", "token_usage.", &run->output_tokens, e) != SB_OK)
		return e->code;
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
static int parse_usage(sb_run_parser *p, const raw_run *r, sb_run *run, bool *oom, sb_err *e)
{
	const char *path = "sandbox_usage.";
	const jval *u = r->u;
	enum vkind k = r->f[R_SANDBOX_USAGE].kind, xk;
	bool has;

	if (k == V_ABSENT)
		return sb_fail(e, SB_EDATA, "sandbox_usage is missing (required)");
	if (k == V_NULL)
		return SB_OK;   /* a run that used no sandbox: every counter 0 */
	if (k != V_OBJECT)
		return sb_fail(e, SB_EDATA, "sandbox_usage must be an object, not %s", kind_name(k));
	if (get_count(&u[U_EXEC_COUNT], "exec_count", path, &run->exec_count, e) != SB_OK ||
	    get_integer(&u[U_TOTAL_DURATION_MS], "total_duration_ms", path, true, &run->total_duration_ms, e) != SB_OK ||
	    get_count(&u[U_CPU_MS], "cpu_ms", path, &run->cpu_ms, e) != SB_OK ||
	    get_count(&u[U_MEMORY_PEAK_MB], "memory_peak_mb", path, &run->memory_peak_mb, e) != SB_OK ||
	    get_count(&u[U_BYTES_READ], "bytes_read", path, &run->bytes_read, e) != SB_OK ||
	    get_count(&u[U_BYTES_WRITTEN], "bytes_written", path, &run->bytes_written, e) != SB_OK ||
	    get_amount(&u[U_COMPUTED_COST_USD], "computed_cost_usd", path, false, &has, &run->computed_nanos, e) != SB_OK ||
	    get_amount(&u[U_BILLED_COST_USD], "billed_cost_usd", path, true, &run->has_billed, &run->billed_nanos, e) != SB_OK)
		return e->code;
	xk = u[U_EXECUTIONS].kind;
	if (xk != V_ABSENT && xk != V_NULL) {
		size_t n = r->n_execs;
		if (xk != V_ARRAY)
			return sb_fail(e, SB_EDATA, "sandbox_usage.executions must be an array, not %s", kind_name(xk));
		if (!reserve_execs(p, n)) {
			*oom = true;
			return SB_OK;
		}
		for (size_t i = 0; i < n; i++)
			if (parse_exec(&p->raw_execs[i], i, &p->execs[i], oom, e) != SB_OK)
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
 * they are, unknown members of sandbox_usage and token_usage under those
 * keys.  NULL when there are none (or out of memory: *oom set). */
static json_t *collect_extra(const raw_run *r, bool *oom)
{
	json_t *extra = r->extra;

	if ((r->extra_usage != NULL || r->extra_tokens != NULL) && extra == NULL &&
	    (extra = json_object()) == NULL)
		*oom = true;
	if (extra != NULL && r->extra_usage != NULL && json_object_set(extra, "sandbox_usage", r->extra_usage) != 0)
		*oom = true;
	if (extra != NULL && r->extra_tokens != NULL && json_object_set(extra, "token_usage", r->extra_tokens) != 0)
		*oom = true;
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

/* ---- the events of one line (importers/json_in.h) -----------------------
 * Known fields go to their slots in p->raw; tags and unknown members are
 * built as jansson values (so that they are stored as before, dumped with
 * sorted keys); a known field of the wrong kind is only noted. */

/* A copy of s[0..len) in the arena, NUL after it; NULL (and the parse
 * told) when out of memory. */
static const char *ev_copy(sb_run_parser *p, const char *s, size_t len)
{
	const char *c = sb_arena_strndup(p->arena, s, len);

	if (c == NULL)
		sb_json_in_oom(p->json);
	return c;
}

/* Push a level; the depth is bounded by json_in's. */
static bool ev_push(sb_run_parser *p, level l)
{
	if (p->depth == p->stack_cap) {
		size_t cap = p->stack_cap * 2;
		level *s = realloc(p->stack, cap * sizeof *s);
		if (s == NULL) {
			sb_json_in_oom(p->json);
			return false;
		}
		p->stack = s;
		p->stack_cap = cap;
	}
	l.key = -1;
	l.ukey = NULL;
	p->stack[p->depth++] = l;
	return true;
}

/* A new execution met in sandbox_usage.executions, or NULL. */
static raw_exec *ev_new_exec(sb_run_parser *p)
{
	raw_exec *x;

	if (p->raw.n_execs == p->raw_execs_cap) {
		size_t cap = p->raw_execs_cap ? p->raw_execs_cap * 2 : 8;
		x = realloc(p->raw_execs, cap * sizeof *x);
		if (x == NULL) {
			sb_json_in_oom(p->json);
			return NULL;
		}
		p->raw_execs = x;
		p->raw_execs_cap = cap;
	}
	x = &p->raw_execs[p->raw.n_execs++];
	memset(x, 0, sizeof *x);
	return x;
}

/* Hand the finished value v (built in jansson) to the level it belongs
 * to: the container being built, tags, or the unknown members. */
static bool ev_attach(sb_run_parser *p, json_t *v)
{
	level *l = &p->stack[p->depth - 1];
	int rc;

	if (v == NULL) {
		if (p->e->code == SB_OK)
			sb_json_in_oom(p->json);
		return false;
	}
	if (l->kind == L_BUILD)
		rc = json_is_object(l->build) ? json_object_set_new_nocheck(l->build, l->ukey, v)
		                              : json_array_append_new(l->build, v);
	else if (l->kind == L_ROOT && l->key == R_TAGS) {
		p->raw.tags = v;
		rc = 0;
	} else {
		if (*l->extra == NULL && (*l->extra = json_object()) == NULL) {
			sb_json_in_oom(p->json);
			return false;
		}
		rc = json_object_set_new_nocheck(*l->extra, l->ukey, v);
	}
	if (rc != 0)
		sb_json_in_oom(p->json);
	return rc == 0;
}

/* The jansson value of a scalar (a number as sb_json_in_number makes it:
 * these values are only stored back as text, never as money); NULL with
 * the error filled when jansson could not hold it, NULL alone when out of
 * memory. */
static json_t *ev_scalar_json(sb_run_parser *p, enum vkind kind, const char *s, size_t len, bool b)
{
	switch (kind) {
	case V_NULL: return json_null();
	case V_BOOL: return json_boolean(b);
	case V_STRING: return json_stringn_nocheck(s, len);
	default: return sb_json_in_number(p->json, s, len, p->e);
	}
}

/* A scalar of the given kind (s[0..len) its text; b a boolean's value). */
static bool ev_scalar(sb_run_parser *p, enum vkind kind, const char *s, size_t len, bool b)
{
	level *l = &p->stack[p->depth - 1];
	raw_exec *x;

	switch (l->kind) {
	case L_TOP:
		p->raw.root = kind;
		return true;
	case L_SKIP:
		return true;
	case L_EXECS:
		if ((x = ev_new_exec(p)) == NULL)
			return false;
		x->kind = kind;
		return true;
	case L_BUILD:
		return ev_attach(p, ev_scalar_json(p, kind, s, len, b));
	default:
		break;
	}
	if (l->key < 0)
		return ev_attach(p, ev_scalar_json(p, kind, s, len, b));
	l->slots[l->key].kind = kind;
	if (kind == V_INT || kind == V_REAL || kind == V_STRING) {
		if ((l->slots[l->key].s = ev_copy(p, s, len)) == NULL)
			return false;
		l->slots[l->key].len = len;
	}
	return true;
}

static bool ev_null(void *ctx)
{
	return ev_scalar(ctx, V_NULL, NULL, 0, false);
}

static bool ev_boolean(void *ctx, bool value)
{
	return ev_scalar(ctx, V_BOOL, NULL, 0, value);
}

static bool ev_number(void *ctx, const char *s, size_t len)
{
	bool real = memchr(s, '.', len) != NULL || memchr(s, 'e', len) != NULL || memchr(s, 'E', len) != NULL;

	return ev_scalar(ctx, real ? V_REAL : V_INT, s, len, false);
}

static bool ev_string(void *ctx, const char *s, size_t len)
{
	return ev_scalar(ctx, V_STRING, s, len, false);
}

static bool ev_key(void *ctx, const char *s, size_t len)
{
	sb_run_parser *p = ctx;
	level *l = &p->stack[p->depth - 1];

	if (l->kind == L_SKIP)
		return true;
	l->key = -1;
	if (l->kind != L_BUILD)
		for (int i = 0; l->keys[i] != NULL; i++)
			if (strncmp(l->keys[i], s, len) == 0 && l->keys[i][len] == '\0') {
				l->key = i;
				return true;
			}
	return (l->ukey = ev_copy(p, s, len)) != NULL;
}

/* The start of an object (is_map) or an array. */
static bool ev_open(sb_run_parser *p, bool is_map)
{
	level *l = &p->stack[p->depth - 1];
	level n = {.kind = L_SKIP};
	enum vkind kind = is_map ? V_OBJECT : V_ARRAY;
	raw_exec *x;

	switch (l->kind) {
	case L_TOP:
		p->raw.root = kind;
		if (is_map)
			n = (level){.kind = L_ROOT, .slots = p->raw.f, .keys = run_keys, .extra = &p->raw.extra};
		break;
	case L_SKIP:
		break;
	case L_EXECS:
		if ((x = ev_new_exec(p)) == NULL)
			return false;
		x->kind = kind;
		if (is_map)
			n = (level){.kind = L_EXEC, .slots = x->f, .keys = exec_keys, .extra = &x->extra};
		break;
	default:
		if (l->kind == L_BUILD || l->key < 0) {
			n.kind = L_BUILD;
			break;
		}
		l->slots[l->key].kind = kind;
		if (l->kind == L_ROOT && l->key == R_TAGS && is_map)
			n.kind = L_BUILD;
		else if (l->kind == L_ROOT && l->key == R_TOKEN_USAGE && is_map)
			n = (level){.kind = L_TOKENS, .slots = p->raw.t, .keys = token_keys, .extra = &p->raw.extra_tokens};
		else if (l->kind == L_ROOT && l->key == R_SANDBOX_USAGE && is_map)
			n = (level){.kind = L_USAGE, .slots = p->raw.u, .keys = usage_keys, .extra = &p->raw.extra_usage};
		else if (l->kind == L_USAGE && l->key == U_EXECUTIONS && !is_map)
			n.kind = L_EXECS;
		break;
	}
	if (n.kind == L_BUILD && (n.build = is_map ? json_object() : json_array()) == NULL) {
		sb_json_in_oom(p->json);
		return false;
	}
	return ev_push(p, n);
}

/* The end of an object or an array. */
static bool ev_close(sb_run_parser *p)
{
	level done = p->stack[--p->depth];

	return done.kind != L_BUILD || ev_attach(p, done.build);
}

static bool ev_start_map(void *ctx)
{
	return ev_open(ctx, true);
}

static bool ev_start_array(void *ctx)
{
	return ev_open(ctx, false);
}

static bool ev_end(void *ctx)
{
	return ev_close(ctx);
}

static const sb_json_events run_events = {
	.null = ev_null,
	.boolean = ev_boolean,
	.number = ev_number,
	.string = ev_string,
	.key = ev_key,
	.start_map = ev_start_map,
	.end_map = ev_end,
	.start_array = ev_start_array,
	.end_array = ev_end,
};

/* sb_run_parse with the parser's arena entered: every JSON value made
 * here dies with the arena's next reset, so none is freed. */
static int parse(sb_run_parser *p, const char *text, size_t len, sb_run *run, sb_err *e)
{
	raw_run *r = &p->raw;
	const char *backend = NULL;
	bool oom = false, has_start;
	int rc;

	memset(r, 0, sizeof *r);
	p->e = e;
	p->depth = 0;
	ev_push(p, (level){.kind = L_TOP});   /* the stack has room: never fails */
	if ((rc = sb_json_in_parse(p->json, text, len, &run_events, p, e)) != SB_OK)
		return rc;
	if (r->root != V_OBJECT)
		return sb_fail(e, SB_EDATA, "not a JSON object but %s (one run record per line)", kind_name(r->root));
	if (get_string(&r->f[R_RUN_ID], "run_id", "", true, 256, &run->run_id, e) != SB_OK ||
	    get_string(&r->f[R_BACKEND], "backend", "", true, 64, &backend, e) != SB_OK)
		return e->code;
	run->backend = sb_backend_from_sdk(backend);
	if (!sb_backend_id_valid(run->backend))
		return sb_fail(e, SB_EDATA, "backend %s is not a backend id ([a-z0-9_-], at most 64) nor an SDK client class",
		               sb_quote(backend, SB_QUOTE_ALWAYS, (char[SB_QUOTE_BUFSZ]){0}, SB_QUOTE_BUFSZ));
	if (get_string(&r->f[R_SESSION_ID], "session_id", "", false, 256, &run->session_id, e) != SB_OK ||
	    get_string(&r->f[R_PLAN], "plan", "", false, 128, &run->plan, e) != SB_OK ||
	    get_time(&r->f[R_STARTED_AT], "started_at", true, &has_start, &run->started_ms, e) != SB_OK ||
	    get_time(&r->f[R_ENDED_AT], "ended_at", false, &run->has_ended, &run->ended_ms, e) != SB_OK)
		return e->code;
	if (run->has_ended && run->ended_ms < run->started_ms)
		return sb_fail(e, SB_EDATA, "ended_at precedes started_at");
	if (parse_tags(p, &r->f[R_TAGS], r->tags, run, &oom, e) != SB_OK ||
	    parse_tokens(r, run, e) != SB_OK ||
	    get_amount(&r->f[R_BUDGET_USD], "budget_usd", "", true, &run->has_budget, &run->budget_nanos, e) != SB_OK ||
	    parse_usage(p, r, run, &oom, e) != SB_OK)
		return e->code;
	run->extra = dump(collect_extra(r, &oom), &oom);
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
