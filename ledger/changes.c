/* changes.c: the log of changes that move stored figures (see changes.h). */
#include "ledger/changes.h"

int sb_change_setting(sb_db *db, const char *what, const char *backend, int64_t from_ms,
                      int64_t to_ms, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "change_add", e);

	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":made_ms", sb_db_now_ms(db));
	sb_bind_text(db, st, ":what", what);
	sb_bind_text_opt(db, st, ":backend", backend);
	sb_bind_i64(db, st, ":from_ms", from_ms);
	sb_bind_i64(db, st, ":to_ms", to_ms);
	sb_bind_null(db, st, ":batch_id");
	return sb_db_run(db, st, e);
}

int sb_change_batch(sb_db *db, int64_t batch_id, sb_err *e)
{
	static const char *const names[] = {"change_batch_runs", "change_batch_lines"};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		sb_stmt *st = sb_db_stmt(db, names[i], e);
		if (st == NULL)
			return e->code;
		sb_bind_i64(db, st, ":made_ms", sb_db_now_ms(db));
		sb_bind_i64(db, st, ":batch_id", batch_id);
		if (sb_db_run(db, st, e) != SB_OK)
			return e->code;
	}
	return SB_OK;
}

int sb_change_batch_since(sb_db *db, int64_t after_recon, const char *backend, int64_t from_ms,
                          int64_t to_ms, int64_t *batch, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "change_batch_of", e);
	int rc;

	*batch = 0;
	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":after_recon", after_recon);
	sb_bind_text(db, st, ":backend", backend);
	sb_bind_i64(db, st, ":from_ms", from_ms);
	sb_bind_i64(db, st, ":to_ms", to_ms);
	rc = sb_db_step(db, st, e);
	if (rc == SB_ROW && !sb_col_is_null(st, 0))
		*batch = sb_col_i64(st, 0);
	sb_stmt_reset(st);
	return rc < 0 ? e->code : SB_OK;
}
