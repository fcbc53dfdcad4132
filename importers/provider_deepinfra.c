/* provider_deepinfra.c: DeepInfra's API (docs/providers.md).
 *
 *   GET /v1/sandboxes/catalog   a JSON array of plans
 *                               {id, vcpu, ram_gb, disk_gb, price_per_hour}:
 *                               rate cards of backend deepinfra, one per
 *                               plan (plan = id), usd_per_minute =
 *                               price_per_hour / 60
 *   GET /payment/usage?from=&to=  spend per month, imported as billing
 *                               format deepinfra-usage (from and to in
 *                               seconds since the epoch, which the API
 *                               takes beside its 'YYYY.MM' form)
 *
 * The key is DEEPINFRA_API_KEY, sent as a bearer token.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "importers/json_in.h"
#include "importers/provider.h"
#include "importers/rates_json.h"
#include "ledger/batch.h"
#include "ledger/money.h"
#include "ledger/rates.h"

enum { PLAN_MAX = 128 };

/* n / d rounded half to even, for n >= 0 and d > 0. */
static __int128 div_even(__int128 n, __int128 d)
{
	__int128 q = n / d, r = n % d;

	if (2 * r > d || (2 * r == d && (q & 1) != 0))
		q++;
	return q;
}

/* The exact decimal text s (">= 0", E-notation allowed) divided by 60, in
 * nanodollars rounded half to even once: price per hour to price per
 * minute.  False when s is not such a number or the result does not fit. */
static bool per_minute(const char *s, int64_t *nanos)
{
	__int128 m = 0, ten = 1, q;
	int digits = 0, k = 0, exp = 0, exp_sign = 1;
	bool any = false, point = false;
	const char *p = s;

	if (*p == '+')
		p++;
	for (; (*p >= '0' && *p <= '9') || (*p == '.' && !point); p++) {
		if (*p == '.') {
			point = true;
			continue;
		}
		any = true;
		if (m == 0 && *p == '0') {
			if (point)
				k--;
			continue;
		}
		if (++digits > 36)
			return false;
		m = m * 10 + (*p - '0');
		if (point)
			k--;
	}
	if (!any)
		return false;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			exp_sign = *p++ == '-' ? -1 : 1;
		if (*p < '0' || *p > '9')
			return false;
		for (; *p >= '0' && *p <= '9'; p++)
			if ((exp = exp * 10 + (*p - '0')) > 400)
				return false;
	}
	if (*p != '\0')
		return false;
	k += exp_sign * exp + 9;  /* value in nanodollars = m * 10^k */
	if (m == 0) {
		*nanos = 0;
		return true;
	}
	if (k >= 0) {
		for (int i = 0; i < k; i++) {
			if (m > ((__int128)INT64_MAX * 60) / 10)
				return false;
			m *= 10;
		}
		q = div_even(m, 60);
	} else if (k < -36) {
		q = 0;  /* m < 10^36: below half a nanodollar */
	} else {
		for (int i = 0; i < -k; i++)
			ten *= 10;
		q = div_even(m, ten * 60);
	}
	if (q > INT64_MAX)
		return false;
	*nanos = (int64_t)q;
	return true;
}

/* The decimal text of a price member: a string as it is, or a JSON
 * number's text as the provider wrote it (j kept it), into buf with a NUL
 * (at most 63 characters). */
static bool price_text(const sb_json_in *j, json_t *v, char buf[64], const char **out)
{
	const char *num;
	size_t len = 0;

	if (json_is_string(v)) {
		*out = json_string_value(v);
		return true;
	}
	if (json_is_number(v) && (num = sb_json_in_number_text(j, v, &len)) != NULL && len < 64) {
		memcpy(buf, num, len);
		buf[len] = '\0';
		*out = buf;
		return true;
	}
	return false;
}

/* A plan read from the catalog. */
typedef struct plan {
	const char *id;          /* plan name (borrowed from the JSON) */
	int64_t per_minute;      /* usd_per_minute in nanodollars */
	double vcpu;             /* vCPUs, or -1 when not given */
	double ram_gb;           /* memory in GB, or -1 */
} plan;

/* An optional non-negative number member into *out (-1 when absent). */
static int size_member(json_t *o, const char *name, size_t i, const char *id, double *out,
                       sb_err *why)
{
	json_t *v = json_object_get(o, name);

	*out = -1;
	if (v == NULL || json_is_null(v))
		return SB_OK;
	if (!json_is_number(v) || json_number_value(v) < 0 || !isfinite(json_number_value(v)))
		return sb_fail(why, SB_EDATA, "plan %zu (%s): %s must be a number >= 0", i + 1, id, name);
	*out = json_number_value(v);
	return SB_OK;
}

/* Check plan i of the catalog and read it into *pl. */
static int read_plan(const sb_json_in *j, json_t *o, size_t i, plan *pl, sb_err *why)
{
	json_t *id = json_object_get(o, "id"), *price;
	const char *text = NULL;
	char buf[64];

	if (!json_is_object(o))
		return sb_fail(why, SB_EDATA, "plan %zu is not a JSON object", i + 1);
	if (!json_is_string(id) || json_string_length(id) == 0 || json_string_length(id) > PLAN_MAX)
		return sb_fail(why, SB_EDATA, "plan %zu: id must be a string of 1 to %d bytes", i + 1,
		               PLAN_MAX);
	pl->id = json_string_value(id);
	for (const char *c = pl->id; *c != '\0'; c++)
		if ((unsigned char)*c < 0x20)
			return sb_fail(why, SB_EDATA, "plan %zu: id holds a control character", i + 1);
	if (strlen(pl->id) != json_string_length(id))
		return sb_fail(why, SB_EDATA, "plan %zu: id holds a NUL byte", i + 1);
	price = json_object_get(o, "price_per_hour");
	if (price == NULL || json_is_null(price))
		return sb_fail(why, SB_EDATA, "plan %zu (%s): price_per_hour is missing", i + 1, pl->id);
	if (!price_text(j, price, buf, &text) || !per_minute(text, &pl->per_minute))
		return sb_fail(why, SB_EDATA, "plan %zu (%s): price_per_hour must be a number >= 0 "
		               "(USD per hour)", i + 1, pl->id);
	if (size_member(o, "vcpu", i, pl->id, &pl->vcpu, why) != SB_OK ||
	    size_member(o, "ram_gb", i, pl->id, &pl->ram_gb, why) != SB_OK)
		return why->code;
	{
		double disk = 0;
		if (size_member(o, "disk_gb", i, pl->id, &disk, why) != SB_OK)
			return why->code;
	}
	return SB_OK;
}

static int read_plans(sb_json_in *j, const char *body, size_t len, json_t **root, plan **plans,
                      size_t *n, sb_err *why);

/* Read the whole catalog: every plan checked before any is stored. */
static int read_catalog(const char *body, size_t len, json_t **root, plan **plans,
                        size_t *n, sb_err *why)
{
	sb_json_in *j = sb_json_in_new();
	int rc;

	if (j == NULL)
		return sb_fail(why, SB_EINTERNAL, "out of memory");
	rc = read_plans(j, body, len, root, plans, n, why);
	sb_json_in_free(j);
	return rc;
}

/* read_catalog with the reader j, which keeps the numbers' texts. */
static int read_plans(sb_json_in *j, const char *body, size_t len, json_t **root, plan **plans,
                      size_t *n, sb_err *why)
{
	size_t count;

	*plans = NULL;
	*n = 0;
	if (sb_json_in_tree(j, body, len, root, why) != SB_OK) {
		sb_err_prefix(why, "the catalog");
		return why->code;
	}
	if (!json_is_array(*root))
		return sb_fail(why, SB_EDATA, "the catalog is not a JSON array of plans (it is %s)",
		               json_is_object(*root) ? "an object" : "a scalar");
	if ((count = json_array_size(*root)) == 0)
		return sb_fail(why, SB_EDATA, "the catalog lists no plans");
	if ((*plans = calloc(count, sizeof **plans)) == NULL)
		return sb_fail(why, SB_EINTERNAL, "out of memory");
	for (size_t i = 0; i < count; i++) {
		if (read_plan(j, json_array_get(*root, i), i, &(*plans)[i], why) != SB_OK)
			return why->code;
		for (size_t k = 0; k < i; k++)
			if (strcmp((*plans)[k].id, (*plans)[i].id) == 0)
				return sb_fail(why, SB_EDATA, "plan %zu: id '%s' is listed twice", i + 1,
				               (*plans)[i].id);
	}
	*n = count;
	return SB_OK;
}

/* Store the plans as cards of backend p->name; r counts stored and
 * unchanged ones.  Inside the caller's transaction. */
static int store_plans(sb_db *db, const sb_provider *p, const plan *plans, size_t n,
                       const sb_fetch_opts *o, sb_fetch_result *r, sb_err *e)
{
	sb_rates *rates = NULL;
	char source[96], rate[SB_MONEY_BUFSZ];
	double max_cpu = -1, max_ram = -1;
	int64_t now = sb_db_now_ms(db);

	snprintf(source, sizeof source, "fetch %s (batch %lld)", p->name, (long long)r->batch_id);
	if (sb_rates_load(db, &rates, e) != SB_OK)
		return e->code;
	for (size_t i = 0; i < n; i++) {
		sb_card card;
		const sb_card *now_in_force;
		if (sb_card_from_text(&card, p->name, plans[i].id,
		                      sb_money_format(plans[i].per_minute, 9, rate), false, NULL, NULL,
		                      o->from, now, e) != SB_OK)
			break;
		now_in_force = sb_rates_find(rates, p->name, plans[i].id, card.effective_ms);
		if (now_in_force != NULL && strcmp(now_in_force->plan, card.plan) == 0 &&
		    !now_in_force->free && now_in_force->per_minute_nanos == card.per_minute_nanos) {
			r->duplicates++;
		} else {
			if (sb_rates_store(db, &card, source, e) != SB_OK)
				break;
			r->accepted++;
		}
		if (plans[i].vcpu > max_cpu)
			max_cpu = plans[i].vcpu;
		if (plans[i].ram_gb > max_ram)
			max_ram = plans[i].ram_gb;
	}
	sb_rates_free(rates);
	if (e->code == SB_OK && (max_cpu >= 0 || max_ram >= 0)) {
		sb_stmt *st = sb_db_stmt(db, "backend_caps_set", e);
		if (st == NULL)
			return e->code;
		sb_bind_text(db, st, ":backend", p->name);
		sb_bind_i64_opt(db, st, ":max_cpu", max_cpu >= 0 && max_cpu < 1e9, (int64_t)max_cpu);
		sb_bind_i64_opt(db, st, ":max_memory_mb", max_ram >= 0 && max_ram < 1e9,
		                (int64_t)llround(max_ram * 1024));
		sb_db_run(db, st, e);
	}
	return e->code;
}

/* The catalog endpoint's handler (see sb_fetch_store_fn): the whole body
 * is read and checked, then its plans stored in one transaction. */
static int store_catalog(sb_db *db, const sb_provider *p, const sb_endpoint *ep, sb_http *h,
                         const sb_fetch_opts *o, sb_fetch_result *r, sb_err *e)
{
	char *body = NULL;
	size_t len = 0, n = 0;
	json_t *root = NULL;
	plan *plans = NULL;
	sb_batch b;
	sb_err why;

	sb_err_clear(&why);
	if (sb_fetch_slurp(h, (size_t)ep->max_bytes, &body, &len, e) != SB_OK)
		return e->code;
	if (sb_fetch_begin(db, "rates", "deepinfra-catalog", r, &b, e) != SB_OK) {
		free(body);
		return e->code;
	}
	if (read_catalog(body, len, &root, &plans, &n, &why) != SB_OK) {
		if (why.code == SB_EINTERNAL)
			sb_fail(e, why.code, "%s", why.msg);
		sb_fetch_end(db, &b, false, why.msg, body, len, r, e);
		if (e->code == SB_OK) {
			char batch_id[32];
			snprintf(batch_id, sizeof batch_id, "%lld", (long long)b.id);
			sb_fail_hint(e, SB_EDATA, SB_HINT_REJECTS, "%s: %s: nothing of it was stored; "
			             SB_WORDS_REJECTS, r->url, why.msg, batch_id);
		}
		if (o->events.on_reject != NULL)
			o->events.on_reject(o->events.ctx, r->url, 1, why.msg);
	} else if (store_plans(db, p, plans, n, o, r, e) != SB_OK) {
		sb_fetch_end(db, &b, false, NULL, body, len, r, e);
	} else {
		sb_fetch_end(db, &b, true, NULL, body, len, r, e);
	}
	free(plans);
	json_decref(root);
	free(body);
	return e->code;
}

static const sb_endpoint endpoints[] = {
	{"catalog", "/v1/sandboxes/catalog", "application/json", SB_QUERY_NONE,
	 {SB_PAGE_NONE, NULL, NULL}, (int64_t)16 << 20, NULL, store_catalog,
	 "plans and prices, stored as rate cards of backend deepinfra (one per plan)"},
	{"usage", "/payment/usage", "application/json", SB_QUERY_UNIX,
	 {SB_PAGE_NONE, NULL, NULL}, (int64_t)64 << 20, "deepinfra-usage", NULL,
	 "spend per month, imported as billing format deepinfra-usage"},
	{NULL, NULL, NULL, SB_QUERY_NONE, {SB_PAGE_NONE, NULL, NULL}, 0, NULL, NULL, NULL},
};

const sb_provider sb_provider_deepinfra = {
	"deepinfra", "https://api.deepinfra.com", "DEEPINFRA_API_KEY", NULL, endpoints,
};
