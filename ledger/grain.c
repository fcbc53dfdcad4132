/* grain.c: the grain a backend is billed at (see grain.h). */
#include "ledger/grain.h"

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
