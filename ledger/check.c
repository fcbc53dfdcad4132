/* check.c: the ledger's invariants (see check.h). */
#include "ledger/check.h"

#include <string.h>

#include "ledger/sqlfiles.h"

/* Run the check of file f, telling ev; its rows added to *problems. */
static int run_one(sb_db *db, const struct sb_sqlfile *f, const sb_check_events *ev,
                   int64_t *problems, sb_err *e)
{
	const char *what = f->text + (strncmp(f->text, "-- ", 3) == 0 ? 3 : 0);
	sqlite3_stmt *st = NULL;
	int64_t n = 0;
	int rc = sqlite3_prepare_v2(sb_db_handle(db), f->text, -1, &st, NULL);

	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (ev->on_problem != NULL)
			ev->on_problem(ev->ctx, sb_col_text(st, 0), n);
		n++;
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sb_db_error(db, rc, f->name, e);
	if (ev->on_check != NULL)
		ev->on_check(ev->ctx, what, strcspn(what, "\n"), n);
	*problems += n;
	return SB_OK;
}

int sb_ledger_check(sb_db *db, const sb_check_events *ev, int64_t *problems, sb_err *e)
{
	static const sb_check_events none = {NULL, NULL, NULL};

	*problems = 0;
	for (const struct sb_sqlfile *f = sb_sqlfiles; f->name != NULL; f++)
		if (strncmp(f->name, "checks/", 7) == 0 && run_one(db, f, ev != NULL ? ev : &none, problems, e) != SB_OK)
			return e->code;
	return SB_OK;
}
