/* rates_json.c: rate cards from JSON (see rates_json.h). */
#include "importers/rates_json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "importers/json_in.h"
#include "importers/runs_jsonl.h"
#include "ledger/money.h"
#include "ledger/period.h"
#include "ledger/quote.h"
#include "ledger/timefmt.h"

/* Parse a rate text into nanodollars (exact decimal, >= 0). */
static int rate(const char *name, const char *text, bool *has, int64_t *nanos, sb_err *e)
{
	*has = text != NULL;
	*nanos = 0;
	if (text == NULL)
		return SB_OK;
	if (sb_money_parse(text, strlen(text), nanos) != SB_MONEY_OK)
		return sb_fail(e, SB_EDATA, "%s '%s' is not a decimal number", name, text);
	if (*nanos < 0)
		return sb_fail(e, SB_EDATA, "%s '%s' is negative", name, text);
	return SB_OK;
}

int sb_card_from_text(sb_card *card, const char *backend, const char *plan,
                      const char *per_minute, bool free, const char *per_cpu_second,
                      const char *per_gb_second, const char *from, int64_t now_ms, sb_err *e)
{
	bool has_minute = false;
	const char *id;

	memset(card, 0, sizeof *card);
	if (backend == NULL)
		return sb_fail(e, SB_EDATA, "backend is missing");
	id = sb_backend_from_sdk(backend);
	if (!sb_backend_id_valid(id))
		return sb_fail(e, SB_EDATA, "backend %s is not a backend id ([a-z0-9_-], at most 64)",
		               sb_quote(backend, SB_QUOTE_ALWAYS, (char[SB_QUOTE_BUFSZ]){0}, SB_QUOTE_BUFSZ));
	snprintf(card->backend, sizeof card->backend, "%s", id);
	if (plan != NULL) {
		if (plan[0] == '\0' || strlen(plan) >= sizeof card->plan)
			return sb_fail(e, SB_EDATA, "plan must be 1 to %zu bytes", sizeof card->plan - 1);
		snprintf(card->plan, sizeof card->plan, "%s", plan);
	}
	if (rate("usd_per_minute", per_minute, &has_minute, &card->per_minute_nanos, e) != SB_OK ||
	    rate("usd_per_cpu_second", per_cpu_second, &card->has_per_cpu_second,
	         &card->per_cpu_second_nanos, e) != SB_OK ||
	    rate("usd_per_gb_second", per_gb_second, &card->has_per_gb_second,
	         &card->per_gb_second_nanos, e) != SB_OK)
		return e->code;
	if (free && has_minute && card->per_minute_nanos != 0)
		return sb_fail(e, SB_EDATA, "a free card cannot have a usd_per_minute");
	if (!free && !has_minute)
		return sb_fail(e, SB_EDATA, "give usd_per_minute, or free");
	card->free = free;
	card->effective_ms = now_ms;
	if (from != NULL && sb_time_parse(from, strlen(from), 0, &card->effective_ms) != SB_TIME_OK) {
		sb_period p;
		sb_err pe;
		sb_err_clear(&pe);
		if (sb_period_parse(from, now_ms, &p, &pe) != SB_OK || strstr(from, "..") != NULL)
			return sb_fail(e, SB_EDATA, "from '%s' is not a date or timestamp", from);
		card->effective_ms = p.from_ms;
	}
	return SB_OK;
}

/* The text of a JSON member that may be a string or a number, for exact
 * parsing: a number's text as it is written in the file (j kept it), into
 * buf with a NUL; NULL when absent or null.  *bad when it is neither, or
 * a number of 64 characters or more. */
static const char *text_of(const sb_json_in *j, json_t *obj, const char *key, char buf[64], bool *bad)
{
	json_t *v = json_object_get(obj, key);
	const char *num;
	size_t len = 0;

	*bad = false;
	if (v == NULL || json_is_null(v))
		return NULL;
	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_number(v) && (num = sb_json_in_number_text(j, v, &len)) != NULL && len < 64) {
		memcpy(buf, num, len);
		buf[len] = '\0';
		return buf;
	}
	*bad = true;
	return NULL;
}

/* The number of single-byte edits (insert, delete, replace, swap of two
 * neighbours) between a and b, counted up to 3: how close a misspelt key
 * is to a known one. */
static int edits(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int d[40][40];

	if (la >= 40 || lb >= 40)
		return 3;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb] < 3 ? d[la][lb] : 3;
}

/* Read entry i of the array into card. */
static int card_from_json(const sb_json_in *j, json_t *obj, size_t i, int64_t now_ms, sb_card *card,
                          sb_err *e)
{
	static const char *const keys[] = {"backend", "plan", "usd_per_minute", "usd_per_cpu_second",
	                                   "usd_per_gb_second", "from", "effective_from", "free"};
	char bufs[7][64];
	const char *v[7];
	const char *key;
	json_t *free_v, *member;
	bool bad;

	if (!json_is_object(obj))
		return sb_fail(e, SB_EDATA, "[%zu]: must be an object", i);
	json_object_foreach(obj, key, member) {
		const char *near = NULL;
		size_t k;
		int best = 3;
		for (k = 0; k < 8 && strcmp(key, keys[k]) != 0; k++) {
			int d = edits(key, keys[k]);
			if (d < best) {
				best = d;
				near = keys[k];
			}
		}
		if (k < 8)
			continue;
		if (near != NULL)
			return sb_fail(e, SB_EDATA, "[%zu]: unknown key %s (did you mean %s?)", i, sb_quote(key, SB_QUOTE_ALWAYS, (char[SB_QUOTE_BUFSZ]){0}, SB_QUOTE_BUFSZ),
			               sb_quote(near, SB_QUOTE_ALWAYS, (char[SB_QUOTE_BUFSZ]){0}, SB_QUOTE_BUFSZ));
		return sb_fail(e, SB_EDATA, "[%zu]: unknown key %s (a card has backend, plan, usd_per_minute, "
		               "free, usd_per_cpu_second, usd_per_gb_second, from or effective_from)", i,
		               sb_quote(key, SB_QUOTE_ALWAYS, (char[SB_QUOTE_BUFSZ]){0}, SB_QUOTE_BUFSZ));
	}
	for (size_t k = 0; k < 7; k++) {
		v[k] = text_of(j, obj, keys[k], bufs[k], &bad);
		if (bad)
			return sb_fail(e, SB_EDATA, "[%zu]: %s must be a string or a number", i, keys[k]);
	}
	free_v = json_object_get(obj, "free");
	if (free_v != NULL && !json_is_boolean(free_v) && !json_is_null(free_v))
		return sb_fail(e, SB_EDATA, "[%zu]: free must be true or false", i);
	if (sb_card_from_text(card, v[0], v[1], v[2], json_is_true(free_v), v[3], v[4],
	                      v[5] != NULL ? v[5] : v[6], now_ms, e) != SB_OK)
		sb_err_prefix(e, "[%zu]", i);
	return e->code;
}

/* The whole file at path into *text (malloc'ed, *len bytes).  SB_ENOINPUT
 * when it cannot be read, SB_EINTERNAL when out of memory. */
static int read_file(const char *path, char **text, size_t *len, sb_err *e)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 64 * 1024, n = 0;
	char *buf = NULL;

	*text = NULL;
	if (f == NULL)
		return sb_fail(e, SB_ENOINPUT, "%s: cannot read: unable to open %s: %s", path, path, strerror(errno));
	for (;;) {
		size_t got;
		if (buf == NULL || n == cap) {
			char *b = realloc(buf, buf == NULL ? cap : (cap *= 2));
			if (b == NULL) {
				free(buf);
				fclose(f);
				return sb_fail(e, SB_EINTERNAL, "out of memory");
			}
			buf = b;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int err = errno;
		free(buf);
		fclose(f);
		return sb_fail(e, SB_ENOINPUT, "%s: cannot read: %s", path, strerror(err));
	}
	fclose(f);
	*text = buf;
	*len = n;
	return SB_OK;
}

int sb_rates_import_file(sb_db *db, const char *path, size_t *count, int64_t *priced, sb_err *e)
{
	json_t *root = NULL;
	int64_t now_ms = sb_db_now_ms(db);
	char *source = NULL, *text = NULL;
	sb_json_in *j = NULL;
	size_t n, len = 0;

	*count = 0;
	*priced = 0;
	if (read_file(path, &text, &len, e) != SB_OK)
		return e->code;
	if ((j = sb_json_in_new()) == NULL) {
		free(text);
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	}
	if (sb_json_in_tree(j, text, len, &root, e) != SB_OK) {
		sb_err_prefix(e, "%s", path);
		goto done;
	}
	if (!json_is_array(root)) {
		sb_fail(e, SB_EDATA, "%s: must be a JSON array of rate cards", path);
		goto done;
	}
	n = json_array_size(root);
	/* the cards' source names the whole path, however long */
	if ((source = malloc(strlen(path) + sizeof "import ")) == NULL) {
		sb_fail(e, SB_EINTERNAL, "out of memory");
		goto done;
	}
	snprintf(source, strlen(path) + sizeof "import ", "import %s", path);
	if (sb_db_begin(db, e) != SB_OK)
		goto done;
	for (size_t i = 0; i < n; i++) {
		sb_card card;
		if (card_from_json(j, json_array_get(root, i), i, now_ms, &card, e) != SB_OK) {
			sb_err_prefix(e, "%s", path);
			break;
		}
		if (sb_rates_store_counted(db, &card, source, priced, e) != SB_OK)
			break;
	}
	if (e->code == SB_OK && sb_db_commit(db, e) == SB_OK) {
		*count = n;
	} else {
		sb_db_rollback(db);
		*priced = 0;
	}
done:
	free(source);
	json_decref(root);
	sb_json_in_free(j);
	free(text);
	return e->code;
}
