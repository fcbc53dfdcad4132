/* export_focus.c: runs as FOCUS 1.2 CSV (see export_focus.h). */
#include "report/export_focus.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ledger/money.h"
#include "ledger/quote.h"
#include "ledger/timefmt.h"
#include "report/csvout.h"

/* One row being gathered: a session's runs on one day. */
typedef struct focus_row {
	char day[16];             /* started_day, "YYYY-MM-DD" */
	char backend[65];         /* backend id */
	char *session_id;         /* NULL for runs naming no session */
	int64_t runs;             /* runs in the row */
	int64_t exec_ms;          /* their total_duration_ms */
	int64_t computed_nanos;   /* their computed cost */
	int64_t billed_nanos;     /* per run its billed, else its computed */
	int64_t with_billed;      /* runs that had a billed figure */
	json_t *tags;             /* merged tags, NULL when no run had any */
	json_t *conflicts;        /* tag names whose runs disagree (left out) */
} focus_row;

static const char focus_header[] =
	"BilledCost,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory,ChargeClass,"
	"ChargeDescription,ChargeFrequency,ChargePeriodStart,ChargePeriodEnd,ConsumedQuantity,ConsumedUnit,"
	"ContractedCost,EffectiveCost,ListCost,PricingQuantity,PricingUnit,ResourceId,ServiceCategory,"
	"ServiceName,ServiceProviderName,Tags,x_BilledBasis,x_Runs\n";

/* Merge one run's tags (JSON text, NULL when none) into the row. */
static void merge_tags(focus_row *r, const char *text)
{
	json_t *tags;
	const char *name;
	json_t *value;

	if (text == NULL || (tags = json_loads(text, 0, NULL)) == NULL)
		return;
	if (!json_is_object(tags)) {
		json_decref(tags);
		return;
	}
	if (r->tags == NULL)
		r->tags = json_object();
	if (r->conflicts == NULL)
		r->conflicts = json_object();
	json_object_foreach(tags, name, value) {
		json_t *have = json_object_get(r->tags, name);
		if (json_object_get(r->conflicts, name) != NULL)
			continue;
		if (have == NULL) {
			json_object_set(r->tags, name, value);
		} else if (!json_equal(have, value)) {
			json_object_del(r->tags, name);
			json_object_set_new(r->conflicts, name, json_true());
		}
	}
	json_decref(tags);
}

/* Write a finished row. */
static void write_row(sb_csv_out *w, const sb_period *period, const focus_row *r)
{
	char billed[SB_MONEY_BUFSZ], computed[SB_MONEY_BUFSZ], qty[SB_MONEY_BUFSZ], runs[32];
	char bfrom[SB_TIME_BUFSZ], bto[SB_TIME_BUFSZ], cfrom[SB_TIME_BUFSZ], cto[SB_TIME_BUFSZ];
	char desc[1400];
	char *tags = NULL;
	int64_t day_ms = 0, start, end, micro_min = 0;

	sb_date_parse(r->day, strlen(r->day), &day_ms);
	start = day_ms > period->from_ms ? day_ms : period->from_ms;
	end = day_ms + SB_MS_PER_DAY < period->to_ms ? day_ms + SB_MS_PER_DAY : period->to_ms;
	/* exec minutes with 6 decimals: ms x 10^6 / 60000, half to even */
	sb_div_round_even((__int128)r->exec_ms * 1000000, 60000, &micro_min);
	sb_money_format(micro_min * 1000, 6, qty);
	sb_money_format(r->billed_nanos, 9, billed);
	sb_money_format(r->computed_nanos, 9, computed);
	snprintf(desc, sizeof desc, "Sandbox compute on %s %s%s (%lld run%s)", r->backend,
	         r->session_id != NULL ? "session " : "", r->session_id != NULL ? r->session_id : "no session",
	         (long long)r->runs, r->runs == 1 ? "" : "s");
	snprintf(runs, sizeof runs, "%lld", (long long)r->runs);
	if (r->tags != NULL)
		tags = json_dumps(r->tags, JSON_COMPACT | JSON_SORT_KEYS);
	sb_csv_value(w, billed);                        /* BilledCost */
	sb_csv_value(w, "USD");                         /* BillingCurrency */
	sb_csv_value(w, sb_time_format(period->from_ms, bfrom));
	sb_csv_value(w, sb_time_format(period->to_ms, bto));
	sb_csv_value(w, "Usage");                       /* ChargeCategory */
	sb_csv_value(w, NULL);                          /* ChargeClass */
	sb_csv_text(w, desc);                           /* ChargeDescription */
	sb_csv_value(w, "Usage-Based");                 /* ChargeFrequency */
	sb_csv_value(w, sb_time_format(start, cfrom));  /* ChargePeriodStart */
	sb_csv_value(w, sb_time_format(end, cto));      /* ChargePeriodEnd */
	sb_csv_value(w, qty);                           /* ConsumedQuantity */
	sb_csv_value(w, "Minutes");                     /* ConsumedUnit */
	sb_csv_value(w, computed);                      /* ContractedCost */
	sb_csv_value(w, computed);                      /* EffectiveCost */
	sb_csv_value(w, computed);                      /* ListCost */
	sb_csv_value(w, qty);                           /* PricingQuantity */
	sb_csv_value(w, "Minutes");                     /* PricingUnit */
	sb_csv_text(w, r->session_id);                  /* ResourceId */
	sb_csv_value(w, "Compute");                     /* ServiceCategory */
	sb_csv_value(w, "Sandbox");                     /* ServiceName */
	sb_csv_text(w, r->backend);                     /* ServiceProviderName */
	sb_csv_text(w, tags);                           /* Tags */
	sb_csv_value(w, r->with_billed == r->runs ? "billed" : r->with_billed == 0 ? "computed" : "mixed");
	sb_csv_value(w, runs);                          /* x_Runs */
	sb_csv_end(w);
	free(tags);
}

/* Forget a row's contents. */
static void row_clear(focus_row *r)
{
	free(r->session_id);
	json_decref(r->tags);
	json_decref(r->conflicts);
	memset(r, 0, sizeof *r);
}

/* True when the current statement row belongs to row r. */
static bool same_row(const focus_row *r, sb_stmt *st)
{
	const char *session = sb_col_text(st, 2);

	return r->runs > 0 && strcmp(r->day, sb_col_text(st, 0)) == 0 && strcmp(r->backend, sb_col_text(st, 1)) == 0 &&
	       (session == NULL ? r->session_id == NULL : r->session_id != NULL && strcmp(r->session_id, session) == 0);
}

int sb_export_focus(sb_db *db, const sb_period *period, bool raw, FILE *out, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "export_focus_runs", e);
	focus_row r;
	sb_csv_out w;
	int rc;

	memset(&r, 0, sizeof r);
	sb_csv_out_init(&w, out, raw);
	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":from_ms", period->from_ms);
	sb_bind_i64(db, st, ":to_ms", period->to_ms);
	fputs(focus_header, out);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		int64_t charged;
		if (!same_row(&r, st)) {
			if (r.runs > 0)
				write_row(&w, period, &r);
			row_clear(&r);
			snprintf(r.day, sizeof r.day, "%s", sb_col_text(st, 0));
			snprintf(r.backend, sizeof r.backend, "%s", sb_col_text(st, 1));
			if (sb_col_text(st, 2) != NULL && (r.session_id = strdup(sb_col_text(st, 2))) == NULL) {
				sb_fail(e, SB_EINTERNAL, "out of memory");
				break;
			}
		}
		r.runs++;
		charged = sb_col_is_null(st, 5) ? sb_col_i64(st, 4) : sb_col_i64(st, 5);
		r.with_billed += sb_col_is_null(st, 5) ? 0 : 1;
		if (sb_money_add(r.exec_ms, sb_col_i64(st, 3), &r.exec_ms) != SB_MONEY_OK ||
		    sb_money_add(r.computed_nanos, sb_col_i64(st, 4), &r.computed_nanos) != SB_MONEY_OK ||
		    sb_money_add(r.billed_nanos, charged, &r.billed_nanos) != SB_MONEY_OK) {
			sb_fail(e, SB_EDATA, "a sum of session %s overflows 64 bits",
			        r.session_id != NULL ? sb_quote(r.session_id, SB_QUOTE_IF_NEEDED, (char[SB_QUOTE_BUFSZ]){0}, SB_QUOTE_BUFSZ) : "(none)");
			break;
		}
		merge_tags(&r, sb_col_text(st, 6));
	}
	sb_stmt_reset(st);
	if (e->code == SB_OK && r.runs > 0)
		write_row(&w, period, &r);
	row_clear(&r);
	if (e->code == SB_OK && ferror(out))
		sb_fail(e, SB_EIO, "cannot write the FOCUS export");
	return e->code;
}
