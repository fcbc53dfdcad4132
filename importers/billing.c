/* billing.c: the billing format table, the parser and the field helpers
 * every format uses (see billing.h).
 *
 * A little over 600 lines: the field helpers (string, money, time,
 * count, currency, backend, the extra fields, the period and header
 * checks) are one family that every format file calls, kept together so
 * that each rule of a field is stated once.
 */
#include "importers/billing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "importers/arena.h"
#include "importers/runs_jsonl.h"
#include "ledger/fx.h"
#include "ledger/money.h"
#include "ledger/quote.h"
#include "ledger/timefmt.h"

/* Every format: adding a provider is one file and one row here. */
static const sb_bill_format *const formats[] = {
	&sb_bill_record,
	&sb_bill_focus,
	&sb_bill_modal,
	&sb_bill_daytona,
	&sb_bill_e2b_events,
	&sb_bill_deepinfra_usage,
};

struct sb_bill_parser {
	const sb_bill_format *f;   /* the format */
	sb_bill_opts o;            /* the import's options */
	json_t *root;              /* the current record's JSON */
	sb_json_in *json;          /* its reader, which keeps the numbers' texts */
	sb_bill_line *lines;       /* lines of the current record */
	size_t n_lines;            /* lines used */
	size_t cap_lines;          /* lines allocated */
	char **owned;              /* texts kept for the current record */
	size_t n_owned;            /* texts used */
	size_t cap_owned;          /* texts allocated */
	bool oom;                  /* memory ran out during the current record */
};

const sb_bill_format *sb_bill_format_find(const char *name)
{
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
		if (strcmp(formats[i]->name, name) == 0)
			return formats[i];
	return NULL;
}

const char *sb_bill_format_names(void)
{
	static char names[256];

	if (names[0] == '\0') {
		for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
			if (i > 0)
				strcat(names, ", ");
			strcat(names, formats[i]->name);
		}
	}
	return names;
}

sb_bill_parser *sb_bill_parser_new(const sb_bill_format *f, const sb_bill_opts *o)
{
	sb_bill_parser *p = calloc(1, sizeof *p);

	if (p == NULL)
		return NULL;
	sb_arena_json_install();   /* counts jansson's failed allocations */
	p->f = f;
	p->o = *o;
	if ((p->json = sb_json_in_new()) == NULL) {
		free(p);
		return NULL;
	}
	return p;
}

/* Release what the previous record held. */
static void reset(sb_bill_parser *p)
{
	json_decref(p->root);
	p->root = NULL;
	for (size_t i = 0; i < p->n_owned; i++)
		free(p->owned[i]);
	p->n_owned = 0;
	p->n_lines = 0;
	p->oom = false;
}

void sb_bill_parser_free(sb_bill_parser *p)
{
	if (p == NULL)
		return;
	reset(p);
	free(p->owned);
	free(p->lines);
	sb_json_in_free(p->json);
	free(p);
}

const sb_bill_opts *sb_bill_opts_of(const sb_bill_parser *p)
{
	return &p->o;
}

sb_bill_line *sb_bill_emit(sb_bill_parser *p)
{
	sb_bill_line *line;

	if (p->n_lines == p->cap_lines) {
		size_t cap = p->cap_lines ? 2 * p->cap_lines : 4;
		sb_bill_line *lines = realloc(p->lines, cap * sizeof *lines);
		if (lines == NULL) {
			p->oom = true;
			return NULL;
		}
		p->lines = lines;
		p->cap_lines = cap;
	}
	line = &p->lines[p->n_lines++];
	memset(line, 0, sizeof *line);
	line->kind = SB_LINE_BILLED;
	line->currency = "USD";
	return line;
}

const char *sb_bill_keep(sb_bill_parser *p, char *text)
{
	if (text == NULL) {
		p->oom = true;
		return NULL;
	}
	if (p->n_owned == p->cap_owned) {
		size_t cap = p->cap_owned ? 2 * p->cap_owned : 16;
		char **owned = realloc(p->owned, cap * sizeof *owned);
		if (owned == NULL) {
			free(text);
			p->oom = true;
			return NULL;
		}
		p->owned = owned;
		p->cap_owned = cap;
	}
	p->owned[p->n_owned++] = text;
	return text;
}

const char *sb_bill_dump(sb_bill_parser *p, json_t *v)
{
	if (v == NULL)
		return NULL;
	return sb_bill_keep(p, json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY |
	                                         JSON_REAL_PRECISION(15)));
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

void sb_field_get(const sb_scope *s, const char *name, sb_field *f)
{
	memset(f, 0, sizeof *f);
	f->null = true;
	if (s->obj != NULL) {
		json_t *v = json_object_get(s->obj, name);
		if (v == NULL)
			return;
		f->present = true;
		if (json_is_null(v))
			return;
		if (json_is_string(v) && json_string_length(v) == 0)
			return;
		f->null = false;
		f->json = v;
		if (json_is_number(v) && s->json != NULL)
			f->num = sb_json_in_number_text(s->json, v, &f->num_len);
		if (json_is_string(v)) {
			f->text = json_string_value(v);
			f->len = json_string_length(v);
		}
		return;
	}
	if (s->csv != NULL && s->row != NULL) {
		int col = sb_csv_column(s->csv, name);
		const sb_csv_field *cell = sb_csv_cell(s->row, col);
		f->present = col >= 0;
		if (cell == NULL || cell->text == NULL || cell->len == 0)
			return;
		f->null = false;
		f->text = cell->text;
		f->len = cell->len;
	}
}

int sb_field_missing(const sb_scope *s, const char *name, sb_err *why)
{
	char keys[200] = "";
	size_t n = 0, used = 0;
	const char *key;
	json_t *v;

	if (s->obj == NULL)
		return sb_fail(why, SB_EDATA, "%s is empty (required)", name);
	if (s->path[0] != '\0')
		return sb_fail(why, SB_EDATA, "%s%s is missing (required)", s->path, name);
	json_object_foreach(s->obj, key, v) {
		int w;
		if (n == 6) {
			snprintf(keys + used, sizeof keys - used, ", ...");
			break;
		}
		w = snprintf(keys + used, sizeof keys - used, "%s%s", n > 0 ? ", " : "", key);
		if (w < 0 || (size_t)w >= sizeof keys - used)
			break;
		used += (size_t)w;
		n++;
	}
	if (n == 0)
		return sb_fail(why, SB_EDATA, "%s is missing (required); the record is an empty object", name);
	return sb_fail(why, SB_EDATA, "%s is missing (required); the record has %s", name, keys);
}

int sb_field_string(const sb_scope *s, const char *name, bool required, size_t max,
                    const char **out, sb_err *why)
{
	sb_field f;

	*out = NULL;
	sb_field_get(s, name, &f);
	if (!f.null && f.text == NULL)
		return sb_fail(why, SB_EDATA, "%s%s must be a string, not %s", s->path, name,
		               type_name(f.json));
	if (f.null || f.len == 0)
		return required ? sb_field_missing(s, name, why) : SB_OK;
	if (strlen(f.text) != f.len)
		return sb_fail(why, SB_EDATA, "%s%s contains a NUL character", s->path, name);
	if (f.len > max)
		return sb_fail(why, SB_EDATA, "%s%s is %zu bytes long, more than %zu", s->path, name,
		               f.len, max);
	*out = f.text;
	return SB_OK;
}

int sb_field_money(const sb_scope *s, const char *name, bool required, bool negative_ok,
                   bool *has, int64_t *nanos, sb_err *why)
{
	sb_field f;
	int rc;

	*has = false;
	*nanos = 0;
	sb_field_get(s, name, &f);
	if (f.null)
		return required ? sb_field_missing(s, name, why) : SB_OK;
	if (f.text != NULL) {
		rc = sb_money_parse(f.text, f.len, nanos);
		if (rc == SB_MONEY_SYNTAX)
			return sb_fail(why, SB_EDATA, "%s%s '%.40s' is not a number", s->path, name, f.text);
	} else if (f.num != NULL) {
		rc = sb_money_parse(f.num, f.num_len, nanos);   /* the number as written */
		if (rc == SB_MONEY_SYNTAX)
			return sb_fail(why, SB_EINTERNAL, "%s%s: the number's text was not kept", s->path, name);
	} else if (json_is_number(f.json)) {
		return sb_fail(why, SB_EINTERNAL, "%s%s: the number's text was not kept", s->path, name);
	} else {
		return sb_fail(why, SB_EDATA, "%s%s must be a number, not %s", s->path, name,
		               type_name(f.json));
	}
	if (rc != SB_MONEY_OK)
		return sb_fail(why, SB_EDATA, "%s%s is too large for 64-bit nanodollars", s->path, name);
	if (*nanos < 0 && !negative_ok)
		return sb_fail(why, SB_EDATA, "%s%s is negative", s->path, name);
	*has = true;
	return SB_OK;
}

int sb_field_time(const sb_scope *s, const char *name, bool required, int flags, bool *has,
                  int64_t *ms, sb_err *why)
{
	sb_field f;

	*has = false;
	*ms = 0;
	sb_field_get(s, name, &f);
	if (!f.null && f.text == NULL)
		return sb_fail(why, SB_EDATA, "%s%s must be a string, not %s", s->path, name,
		               type_name(f.json));
	if (f.null || f.len == 0)
		return required ? sb_field_missing(s, name, why) : SB_OK;
	switch (sb_time_parse(f.text, f.len, flags, ms)) {
	case SB_TIME_OK:
		*has = true;
		return SB_OK;
	case SB_TIME_NO_OFFSET:
		return sb_fail(why, SB_EDATA, "%s%s '%.64s' has no UTC offset (add Z or +hh:mm)", s->path,
		               name, f.text);
	case SB_TIME_RANGE:
		return sb_fail(why, SB_EDATA, "%s%s '%.64s' is not a valid date and time", s->path, name,
		               f.text);
	case SB_TIME_OUTSIDE:
		return sb_fail(why, SB_EDATA, "%s%s '%.64s' " SB_TIME_OUTSIDE_WORDS, s->path, name, f.text);
	default:
		if (flags & SB_TIME_NAIVE_UTC)
			return sb_fail(why, SB_EDATA, "%s%s '%.64s' is not a date and time (RFC 3339, or YYYY-MM-DDThh:mm:ss in UTC)",
			               s->path, name, f.text);
		return sb_fail(why, SB_EDATA, "%s%s '%.64s' is not an RFC 3339 timestamp", s->path, name,
		               f.text);
	}
}

int sb_field_count(const sb_scope *s, const char *name, bool required, bool *has,
                   int64_t *out, sb_err *why)
{
	sb_field f;

	*has = false;
	*out = 0;
	sb_field_get(s, name, &f);
	if (f.null)
		return required ? sb_field_missing(s, name, why) : SB_OK;
	if (f.text != NULL && s->obj == NULL) {
		int64_t v = 0;
		if (f.len == 0 || f.len > 18)
			return sb_fail(why, SB_EDATA, "%s%s '%.40s' is not a whole number", s->path, name, f.text);
		for (size_t i = 0; i < f.len; i++) {
			if (f.text[i] < '0' || f.text[i] > '9')
				return sb_fail(why, SB_EDATA, "%s%s '%.40s' is not a whole number", s->path, name, f.text);
			v = v * 10 + (f.text[i] - '0');
		}
		*out = v;
	} else if (json_is_integer(f.json)) {
		if (json_integer_value(f.json) < 0)
			return sb_fail(why, SB_EDATA, "%s%s is negative", s->path, name);
		*out = (int64_t)json_integer_value(f.json);
	} else if (json_is_real(f.json)) {
		/* written with a fraction or an exponent: not an integer literal */
		if (json_real_value(f.json) < 0)
			return sb_fail(why, SB_EDATA, "%s%s is negative", s->path, name);
		return sb_fail(why, SB_EDATA, "%s%s must be a whole number written as an integer (no fraction, no exponent), not %.*s",
		               s->path, name, (int)(f.num_len > 40 ? 40 : f.num_len), f.num != NULL ? f.num : "");
	} else {
		return sb_fail(why, SB_EDATA, "%s%s must be a whole number, not %s", s->path, name,
		               type_name(f.json));
	}
	*has = true;
	return SB_OK;
}

/* True when s[0..len) is a decimal number: sign, digits, fraction,
 * exponent, as sb_money_parse reads them, without a range limit. */
static bool decimal_text(const char *s, size_t len)
{
	size_t i = 0, digits = 0;

	if (i < len && (s[i] == '+' || s[i] == '-'))
		i++;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++, digits++;
	if (i < len && s[i] == '.')
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			digits++;
	if (digits == 0)
		return false;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t exp_digits = 0;
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++, exp_digits++;
		if (exp_digits == 0)
			return false;
	}
	return i == len;
}

int sb_field_number_text(sb_bill_parser *p, const sb_scope *s, const char *name,
                         const char **out, sb_err *why)
{
	sb_field f;

	*out = NULL;
	sb_field_get(s, name, &f);
	if (f.null)
		return SB_OK;
	if (f.text != NULL) {
		if (!decimal_text(f.text, f.len))
			return sb_fail(why, SB_EDATA, "%s%s '%.40s' is not a number", s->path, name, f.text);
		*out = f.text;
		return SB_OK;
	}
	if (!json_is_number(f.json))
		return sb_fail(why, SB_EDATA, "%s%s must be a number, not %s", s->path, name,
		               type_name(f.json));
	if (json_is_real(f.json) && !isfinite(json_real_value(f.json)))
		return sb_fail(why, SB_EDATA, "%s%s is not a finite number", s->path, name);
	*out = sb_bill_dump(p, f.json);
	return SB_OK;
}

int sb_field_currency(sb_bill_parser *p, const sb_scope *s, const char *name, bool required,
                      const char **code, sb_err *why)
{
	const char *text = NULL;
	char upper[4];

	*code = "USD";
	if (sb_field_string(s, name, required, 64, &text, why) != SB_OK)
		return why->code;
	if (text == NULL)
		return SB_OK;
	if (strlen(text) == 3) {
		for (int i = 0; i < 3; i++)
			upper[i] = text[i] >= 'a' && text[i] <= 'z' ? (char)(text[i] - 'a' + 'A') : text[i];
		upper[3] = '\0';
		if (sb_currency_known(upper)) {
			*code = strcmp(upper, text) == 0 ? text : sb_bill_keep(p, strdup(upper));
			return *code != NULL ? SB_OK : sb_fail(why, SB_EINTERNAL, "out of memory");
		}
	}
	return sb_fail(why, SB_EDATA, "%s%s '%.40s' is not an ISO 4217 currency code", s->path, name,
	               text);
}

int sb_bill_backend(sb_bill_parser *p, const char *field, const char *name, const char **id,
                    sb_err *why)
{
	const char *mapped = sb_backend_from_sdk(name);
	size_t len = strlen(mapped), n = 0;
	char *folded = malloc(len + 1);

	*id = NULL;
	if (folded == NULL)
		return sb_fail(why, SB_EINTERNAL, "out of memory");
	for (size_t i = 0; i < len; i++) {
		char c = mapped[i];
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
			continue;
		folded[n++] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
	}
	folded[n] = '\0';
	if (!sb_backend_id_valid(folded)) {
		free(folded);
		return sb_fail(why, SB_EDATA, "%s '%.64s' does not make a backend id ([a-z0-9_-], at most 64, after lower-casing and removing spaces)",
		               field, name);
	}
	*id = sb_bill_keep(p, folded);
	return *id != NULL ? SB_OK : sb_fail(why, SB_EINTERNAL, "out of memory");
}

/* True when name is one of known (NULL-ended), ASCII case ignored when
 * nocase (CSV headers, which a reader may match ignoring case). */
static bool listed(const char *name, const char *const *known, bool nocase)
{
	for (; known != NULL && *known != NULL; known++)
		if ((nocase ? strcasecmp(name, *known) : strcmp(name, *known)) == 0)
			return true;
	return false;
}

json_t *sb_bill_extra(const sb_scope *s, const char *const *known, const char *ignore_prefix)
{
	size_t plen = ignore_prefix != NULL ? strlen(ignore_prefix) : 0;
	json_t *extra = json_object();

	if (extra == NULL)
		return NULL;
	if (s->obj != NULL) {
		const char *key;
		json_t *v;
		json_object_foreach(s->obj, key, v) {
			if (json_is_null(v) || listed(key, known, false) ||
			    (plen > 0 && strncasecmp(key, ignore_prefix, plen) == 0))
				continue;
			json_object_set(extra, key, v);
		}
	} else if (s->csv != NULL && s->row != NULL) {
		for (size_t i = 0; i < sb_csv_columns(s->csv); i++) {
			const char *name = sb_csv_column_key(s->csv, i);
			const sb_csv_field *cell = sb_csv_cell(s->row, (int)i);
			if (cell == NULL || cell->text == NULL || name[0] == '\0' || listed(name, known, true) ||
			    (plen > 0 && strncasecmp(name, ignore_prefix, plen) == 0))
				continue;
			json_object_set_new(extra, name, json_stringn(cell->text, cell->len));
		}
	}
	if (json_object_size(extra) == 0) {
		json_decref(extra);
		return NULL;
	}
	return extra;
}

int sb_bill_check_period(const sb_scope *s, const char *start_name, const char *end_name,
                         int64_t start_ms, int64_t end_ms, sb_err *why)
{
	if (end_ms < start_ms)
		return sb_fail(why, SB_EDATA, "%s%s precedes %s%s", s->path, end_name, s->path, start_name);
	return SB_OK;
}

/* True when s[0..n) is UTF-8 as RFC 3629 has it: no overlong forms, no
 * surrogates, nothing past U+10FFFF (what jansson accepts in JSON text, so
 * that a CSV cell stored can be written out as JSON). */
static bool utf8_valid(const char *text, size_t n)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i = 0;

	while (i < n) {
		unsigned c = s[i], cp, min;
		size_t k;
		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF) {
			k = 1, cp = c & 0x1F, min = 0x80;
		} else if (c >= 0xE0 && c <= 0xEF) {
			k = 2, cp = c & 0x0F, min = 0x800;
		} else if (c >= 0xF0 && c <= 0xF4) {
			k = 3, cp = c & 0x07, min = 0x10000;
		} else {
			return false;
		}
		if (n - i <= k)
			return false;
		for (size_t j = 1; j <= k; j++) {
			if ((s[i + j] & 0xC0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + j] & 0x3F);
		}
		if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return false;
		i += k + 1;
	}
	return true;
}

int sb_bill_check_header(const sb_bill_format *f, const sb_csv *csv, sb_err *why)
{
	char cols[240] = "";
	size_t used = 0, n = sb_csv_columns(csv);
	const char *missing = NULL;
	bool any = f->one_of == NULL;

	for (size_t i = 0; i < n; i++)
		if (!utf8_valid(sb_csv_column_name(csv, i), strlen(sb_csv_column_name(csv, i))))
			return sb_fail(why, SB_EDATA, "the header's column %zu is not valid UTF-8", i + 1);
	if (n == 1) {
		/* one column: a file separated by the other character */
		const char *name = sb_csv_column_name(csv, 0);
		char delim = sb_csv_delimiter(csv), other = delim == ',' ? ';' : ',';
		char shown[66], given[4] = {'\'', other, '\'', '\0'};
		if (strchr(name, other) != NULL)
			return sb_fail_hint(why, SB_EDATA, SB_HINT_DELIMITER,
			                    "the header did not split into columns at '%c': it is the one column %s; if the file is separated by '%c', " SB_WORDS_DELIMITER,
			                    delim, sb_quote(name, SB_QUOTE_ALWAYS, shown, sizeof shown), other, given);
	}
	for (const char *const *c = f->required; c != NULL && *c != NULL && missing == NULL; c++)
		if (sb_csv_column(csv, *c) < 0)
			missing = *c;
	for (const char *const *c = f->one_of; c != NULL && *c != NULL; c++)
		any = any || sb_csv_column(csv, *c) >= 0;
	if (missing == NULL && any)
		return SB_OK;
	for (size_t i = 0; i < n; i++) {
		char shown[SB_QUOTE_BUFSZ];
		int w = snprintf(cols + used, sizeof cols - used, "%s%s", i > 0 ? ", " : "",
		                 sb_quote(sb_csv_column_name(csv, i), SB_QUOTE_IF_NEEDED, shown, sizeof shown));
		if (w < 0 || (size_t)w >= sizeof cols - used) {
			snprintf(cols + (used < sizeof cols - 6 ? used : sizeof cols - 6), 6, ", ...");
			break;
		}
		used += (size_t)w;
	}
	if (missing != NULL)
		return sb_fail_hint(why, SB_EDATA, SB_HINT_FORMAT,
		                    "the header has no column %s " SB_WORDS_FORMAT "; its columns are %s",
		                    missing, f->name, cols);
	return sb_fail_hint(why, SB_EDATA, SB_HINT_FORMAT,
	                    "the header has none of the columns %s or %s " SB_WORDS_FORMAT "; its columns are %s",
	                    f->one_of[0], f->one_of[1], f->name, cols);
}

int sb_bill_parse(sb_bill_parser *p, const sb_rec *rec, const sb_bill_line **lines, size_t *n,
                  sb_err *why)
{
	sb_scope scope = {NULL, rec->csv, rec->row, "", NULL};
	unsigned long failures = sb_arena_json_failures();
	int rc;

	reset(p);
	*lines = NULL;
	*n = 0;
	if (rec->row == NULL) {
		rc = sb_json_in_tree(p->json, rec->text, rec->len, &p->root, why);
		if (rc == SB_OK && sb_arena_json_failures() != failures) {   /* not bad data (see arena.h) */
			sb_err_clear(why);
			rc = sb_fail(why, SB_EINTERNAL, "out of memory (reading JSON)");
		}
		if (rc != SB_OK)
			return rc;
		if (!json_is_object(p->root))
			return sb_fail(why, SB_EDATA, "not a JSON object but %s (one record is an object)",
			               type_name(p->root));
		scope.obj = p->root;
		scope.json = p->json;
		scope.csv = NULL;
	} else {
		/* as JSON text is: what is stored must be writable as JSON */
		for (size_t i = 0; i < rec->row->nfields; i++)
			if (rec->row->fields[i].text != NULL &&
			    !utf8_valid(rec->row->fields[i].text, rec->row->fields[i].len))
				return sb_fail(why, SB_EDATA, "%s (column %zu) is not valid UTF-8",
				               sb_csv_column_name(rec->csv, i), i + 1);
	}
	rc = p->f->parse(p, &scope, why);
	if (rc != SB_EINTERNAL && (p->oom || sb_arena_json_failures() != failures)) {
		sb_err_clear(why);
		rc = sb_fail(why, SB_EINTERNAL, "out of memory");
	}
	if (rc != SB_OK)
		return rc;
	*lines = p->lines;
	*n = p->n_lines;
	return SB_OK;
}
