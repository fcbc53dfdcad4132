/* grain.c: the grain a backend is billed at (see grain.h). */
#include "ledger/grain.h"

#include <string.h>

#include "ledger/changes.h"
#include "ledger/names.h"
#include "ledger/timefmt.h"

static const char *const grain_names[] = {
	[SB_GRAIN_AUTO] = "auto",
	[SB_GRAIN_DAY] = "day",
	[SB_GRAIN_MONTH] = "month",
};

const char *sb_grain_name(sb_grain g)
{
	return grain_names[g];
}

int sb_grain_parse(const char *name, sb_grain *out, sb_err *e)
{
	int i = 0;

	if (sb_name_parse(grain_names, 3, "a grain", name, &i, e) != SB_OK)
		return e->code;
	*out = (sb_grain)i;
	return SB_OK;
}

/* The grain set for backend (SB_GRAIN_AUTO when none is). */
static int grain_setting(sb_db *db, const char *backend, sb_grain *out, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "grain_get", e);
	int rc;

	*out = SB_GRAIN_AUTO;
	if (st == NULL)
		return e->code;
	sb_bind_text(db, st, ":backend", backend);
	rc = sb_db_step(db, st, e);
	if (rc == SB_ROW && sb_grain_parse(sb_col_text(st, 0), out, e) != SB_OK)
		rc = -1;
	sb_stmt_reset(st);
	return rc < 0 ? e->code : SB_OK;
}

sb_period sb_month_of(int64_t t)
{
	int64_t year;
	int month, day;
	sb_period p;

	sb_civil_from_ms(t, &year, &month, &day);
	p.from_ms = sb_days_from_civil_ms(year, month, 1);
	p.to_ms = month == 12 ? sb_days_from_civil_ms(year + 1, 1, 1) : sb_days_from_civil_ms(year, month + 1, 1);
	return p;
}

/* auto: month when every live account-level line of the latest month
 * that has any spans that whole month. */
static int grain_by_lines(sb_db *db, const char *backend, sb_grain *out, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "grain_latest_line", e);
	sb_period m;
	int rc;

	*out = SB_GRAIN_DAY;
	if (st == NULL)
		return e->code;
	sb_bind_text(db, st, ":backend", backend);
	rc = sb_db_step(db, st, e);
	if (rc != SB_ROW || sb_col_is_null(st, 0)) {
		sb_stmt_reset(st);
		return rc < 0 ? e->code : SB_OK;
	}
	m = sb_month_of(sb_col_i64(st, 0));
	sb_stmt_reset(st);
	if ((st = sb_db_stmt(db, "grain_month_lines", e)) == NULL)
		return e->code;
	sb_bind_text(db, st, ":backend", backend);
	sb_bind_i64(db, st, ":from_ms", m.from_ms);
	sb_bind_i64(db, st, ":to_ms", m.to_ms);
	rc = sb_db_step(db, st, e);
	if (rc == SB_ROW && sb_col_i64(st, 0) > 0 && sb_col_i64(st, 0) == sb_col_i64(st, 1))
		*out = SB_GRAIN_MONTH;
	sb_stmt_reset(st);
	return rc < 0 ? e->code : SB_OK;
}

int sb_grain_of(sb_db *db, const char *backend, sb_grain *out, sb_err *e)
{
	if (grain_setting(db, backend, out, e) != SB_OK)
		return e->code;
	return *out == SB_GRAIN_AUTO ? grain_by_lines(db, backend, out, e) : SB_OK;
}

int sb_grain_set(sb_db *db, const char *backend, sb_grain g, sb_grain_change *c, sb_err *e)
{
	sb_stmt *st;

	memset(c, 0, sizeof *c);
	if (grain_setting(db, backend, &c->was, e) != SB_OK ||
	    sb_grain_of(db, backend, &c->judged_was, e) != SB_OK)
		return e->code;
	c->judged = c->judged_was;
	if (c->was == g)
		return SB_OK;
	if ((st = sb_db_stmt(db, "grain_set", e)) == NULL)
		return e->code;
	sb_bind_text(db, st, ":backend", backend);
	sb_bind_text(db, st, ":grain", sb_grain_name(g));
	sb_bind_i64(db, st, ":set_ms", sb_db_now_ms(db));
	if (sb_db_run(db, st, e) != SB_OK || sb_grain_of(db, backend, &c->judged, e) != SB_OK)
		return e->code;
	c->stored = true;
	if (c->judged == c->judged_was)
		return SB_OK;
	c->logged = true;
	/* every span: a result that judged the backend, whenever, was judged
	 * at the other grain (recon_latest.sql meets it by its backend only) */
	return sb_change_setting(db, "grain", backend, INT64_MIN, SB_CHANGE_FOREVER, e);
}

bool sb_period_whole_months(const sb_period *p)
{
	sb_period first = sb_month_of(p->from_ms), last = sb_month_of(p->to_ms);

	return p->to_ms > p->from_ms && first.from_ms == p->from_ms && last.from_ms == p->to_ms;
}

bool sb_period_one_month(const sb_period *p)
{
	sb_period m = sb_month_of(p->from_ms);

	return m.from_ms == p->from_ms && m.to_ms == p->to_ms;
}

bool sb_period_one_day(const sb_period *p)
{
	int64_t r = p->from_ms % SB_MS_PER_DAY;

	return (r == 0) && p->to_ms - p->from_ms == SB_MS_PER_DAY;
}
