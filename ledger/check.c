/* check.c: the ledger's invariants (see check.h). */
#include "ledger/check.h"

#include <stdio.h>
#include <string.h>

#include "ledger/sqlfiles.h"

/* Run the check of file f, telling ev; its rows added to *problems. */
static int run_one(sb_db *db, const struct sb_sqlfile *f, const sb_check_events *ev,
                   int64_t *problems, sb_err *e)
{
	const char *sql = sb_db_sql(db, f->name);
	size_t what_len;
	const char *what = sb_sql_title(sql, &what_len);
	sb_stmt *st = NULL;
	int64_t n = 0;
	int rc = -1;

	if (sb_db_prepare(db, &sql, f->name, &st, e) != SB_OK)
		return e->code;
	sb_db_value_error_clear(db);
	while (st != NULL && (rc = sb_db_step(db, st, e)) == SB_ROW) {
		if (ev->on_problem != NULL)
			ev->on_problem(ev->ctx, sb_col_text(st, 0), n);
		n++;
	}
	sb_stmt_finalize(st);
	if (st == NULL)
		return sb_fail(e, SB_EINTERNAL, "sql/%s.sql holds no statement", f->name);
	if (rc != SB_DONE && e->code == SB_EDATA && sb_db_value_error(db)) {
		/* the ledger's data is what stopped it (a stored value the
		 * schema does not allow): one problem more, and the checks
		 * after it run */
		char row[sizeof e->msg + 32];
		snprintf(row, sizeof row, "this check could not run: %s", e->msg);
		if (ev->on_problem != NULL)
			ev->on_problem(ev->ctx, row, n);
		n++;
		sb_err_clear(e);
	} else if (rc != SB_DONE) {
		return e->code;
	}
	if (ev->on_check != NULL)
		ev->on_check(ev->ctx, what, what_len, n);
	*problems += n;
	return SB_OK;
}

int sb_ledger_check(sb_db *db, const sb_check_events *ev, int64_t *problems, sb_err *e)
{
	static const sb_check_events none = {NULL, NULL, NULL, NULL};
	const char *note = sb_db_check_note(db);

	*problems = 0;
	if (note != NULL && ev != NULL && ev->on_note != NULL)
		ev->on_note(ev->ctx, note);
	for (const struct sb_sqlfile *f = sb_sqlfiles; f->name != NULL; f++)
		if (strncmp(f->name, "checks/", 7) == 0 && run_one(db, f, ev != NULL ? ev : &none, problems, e) != SB_OK)
			return e->code;
	return SB_OK;
}
