/* recon_out.c: a reconciliation as the command prints it (see
 * recon_out.h). */
#include "report/recon_out.h"

#include <stdlib.h>
#include <string.h>

#include "ledger/money.h"
#include "ledger/timefmt.h"
#include "report/recon_json.h"
#include "report/recon_words.h"

/* A billing lag for a sentence: "72 h", "90 min", "45 s". */
static const char *lag_text(int64_t ms, char buf[40])
{
	if (ms % 3600000 == 0)
		snprintf(buf, 40, "%lld h", (long long)(ms / 3600000));
	else if (ms % 60000 == 0)
		snprintf(buf, 40, "%lld min", (long long)(ms / 60000));
	else
		snprintf(buf, 40, "%lld s", (long long)(ms / 1000));
	return buf;
}

/* "N backends, M sessions flagged" (singular for one) into buf. */
static const char *flag_counts(const sb_recon *r, char buf[96])
{
	snprintf(buf, 96, "%lld backend%s, %lld session%s flagged", (long long)r->flagged_backends,
	         r->flagged_backends == 1 ? "" : "s", (long long)r->flagged_sessions,
	         r->flagged_sessions == 1 ? "" : "s");
	return buf;
}

/* The flagged cell of a backend: "yes", "yes, 2 sessions", "2 sessions",
 * or "-". */
static const char *flag_cell(const sb_recon_backend *b, char buf[64])
{
	if (b->sessions_flagged == 0)
		return b->flagged ? "yes" : "-";
	snprintf(buf, 64, "%s%lld session%s", b->flagged ? "yes, " : "", (long long)b->sessions_flagged,
	         b->sessions_flagged == 1 ? "" : "s");
	return buf;
}

/* One backend row of the table. */
static void out_backend(sb_out *o, const sb_recon_backend *b)
{
	char rel[SB_MONEY_BUFSZ], flag[64];

	sb_out_text(o, b->backend);
	sb_out_text(o, sb_recon_status_name(b->status));
	sb_out_text(o, flag_cell(b, flag));
	sb_out_text(o, b->basis != SB_RBASIS_NONE ? sb_recon_basis_name(b->basis) : "-");
	sb_out_int(o, b->runs);
	sb_out_money(o, b->computed_nanos);
	if (b->has_billed)
		sb_out_money(o, b->billed_nanos);
	else
		sb_out_null(o);
	if (b->has_drift)
		sb_out_money(o, b->drift_nanos);
	else
		sb_out_null(o);
	if (b->has_drift_rel && b->drift_rel_micro < INT64_MAX / 100000 && b->drift_rel_micro > INT64_MIN / 100000) {
		sb_money_format(b->drift_rel_micro * 100000, 2, rel);
		strcat(rel, "%");
		sb_out_text(o, rel);
	} else {
		sb_out_null(o);
	}
	sb_out_text(o, b->explain.verdict != SB_VERDICT_NONE ? sb_verdict_name(b->explain.verdict) : "-");
	sb_out_row(o);
}

/* The order of backends in the table: flagged (or with flagged
 * sessions), then the others not ok (pending, unbilled not yet flagged),
 * then ok. */
static int table_rank(const sb_recon_backend *b)
{
	if (b->flagged || b->sessions_flagged > 0)
		return 0;
	return b->status != SB_STATUS_OK ? 1 : 2;
}

int sb_recon_table(FILE *f, const sb_recon *r, const sb_invocation *inv, sb_err *e)
{
	static const sb_col cols[] = {
		{"backend", COL_TEXT, 0}, {"status", COL_TEXT, 0}, {"flagged", COL_TEXT, 0},
		{"basis", COL_TEXT, 0}, {"runs", COL_INT, 0}, {"computed_usd", COL_MONEY, 0},
		{"billed_usd", COL_MONEY, 0}, {"drift_usd", COL_MONEY, 0}, {"drift", COL_NUMBER, 0},
		{"verdict", COL_TEXT, 0},
	};
	static const sb_col scols[] = {
		{"backend", COL_TEXT, 0}, {"session", COL_TEXT, 40}, {"status", COL_TEXT, 0},
		{"flagged", COL_TEXT, 0}, {"runs", COL_INT, 0}, {"computed_usd", COL_MONEY, 0},
		{"billed_usd", COL_MONEY, 0}, {"drift_usd", COL_MONEY, 0},
	};
	const sb_period *p = &r->opts.period;
	char from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ], abs[SB_MONEY_BUFSZ], rel[SB_MONEY_BUFSZ];
	char at[SB_TIME_BUFSZ], lag[40], counts[96], text[1024];
	bool first;
	sb_out *o;

	fprintf(f, "period %s .. %s, judged at %s; drift flagged above %s USD and %s%% of computed; "
	           "a missing bill flagged %s after its window ends\n\n",
	           sb_time_format(p->from_ms, from), sb_time_format(p->to_ms, to),
	           sb_time_format(r->opts.now_ms, at), sb_money_format(r->opts.abs_nanos, 2, abs),
	           sb_money_format(r->opts.rel_ppb * 100, 2, rel), lag_text(r->opts.billing_lag_ms, lag));
	if (r->n_backends == 0) {
		fputs("no runs and no billing lines in the period\n", f);
		return SB_OK;
	}
	o = sb_out_new(f, FMT_TABLE, false, cols, sizeof cols / sizeof cols[0]);
	for (int rank = 0; rank < 3; rank++)
		for (size_t i = 0; i < r->n_backends; i++)
			if (table_rank(&r->backends[i]) == rank)
				out_backend(o, &r->backends[i]);
	sb_out_end(o, e);
	first = true;
	for (size_t i = 0; i < r->n_backends; i++) {
		const sb_recon_backend *b = &r->backends[i];
		if (b->window.from_ms == p->from_ms && b->window.to_ms == p->to_ms)
			continue;
		fprintf(f, "%s  %s: judged over %s .. %s, the %s its account-level lines are billed in (its runs "
		           "over the same window)\n", first ? "\n" : "", b->backend,
		           sb_time_format(b->window.from_ms, from), sb_time_format(b->window.to_ms, to),
		           b->grid_ms == SB_GRID_HOUR_MS ? "hours" : "days");
		first = false;
	}
	first = true;
	for (int rank = 0; rank < 3; rank++)
		for (size_t i = 0; i < r->n_backends; i++) {
			const sb_recon_backend *b = &r->backends[i];
			if (table_rank(b) != rank || !sb_recon_words(r, b, inv, text, sizeof text))
				continue;
			fprintf(f, "%s  %s %s: %s\n", first ? "\n" : "", b->backend, sb_recon_status_name(b->status), text);
			first = false;
		}
	if (r->n_sessions > 0) {
		fputc('\n', f);
		o = sb_out_new(f, FMT_TABLE, false, scols, sizeof scols / sizeof scols[0]);
		for (size_t i = 0; i < r->n_sessions; i++) {
			const sb_recon_session *s = &r->sessions[i];
			int64_t drift = 0;
			sb_out_text(o, s->backend);
			sb_out_text(o, s->session_id != NULL ? s->session_id : "(none)");
			sb_out_text(o, sb_recon_status_name(s->status));
			sb_out_text(o, s->flagged ? "yes" : "-");
			sb_out_int(o, s->runs);
			sb_out_money(o, s->computed_nanos);
			if (s->has_billed)
				sb_out_money(o, s->billed_nanos);
			else
				sb_out_null(o);
			if (s->has_billed && sb_money_sub(s->billed_nanos, s->computed_nanos, &drift) == SB_MONEY_OK)
				sb_out_money(o, drift);
			else
				sb_out_null(o);
			sb_out_row(o);
		}
		sb_out_end(o, e);
	}
	fprintf(f, "\n%s", flag_counts(r, counts));
	if (r->pending > 0)
		fprintf(f, "; %lld backend%s pending (judged again once %s window%s ended)", (long long)r->pending,
		           r->pending == 1 ? "" : "s", r->pending == 1 ? "its" : "their", r->pending == 1 ? " has" : "s have");
	fputc('\n', f);
	return e->code;
}

int sb_report_recon(FILE *f, sb_format fmt, const sb_recon *r, const sb_invocation *inv,
                    sb_err *e)
{
	char *text;

	if (fmt == FMT_TABLE)
		return sb_recon_table(f, r, inv, e);
	if (fmt != FMT_JSON)
		return sb_fail(e, SB_EINTERNAL, "a reconciliation has no such output format");
	if ((text = sb_recon_json_text(r, JSON_INDENT(1))) == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory while writing the result");
	fputs(text, f);
	fputc('\n', f);
	free(text);
	return SB_OK;
}
