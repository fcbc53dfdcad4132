/* batch.c: import batches and rejected lines (see batch.h). */
#include "ledger/batch.h"

#include <string.h>

int sb_batch_find_complete(sb_db *db, const char *format, const char *sha256,
                           int64_t *id, sb_err *e)
{
	sqlite3_stmt *st = sb_db_stmt(db, "batch_find_complete", e);
	int rc;

	*id = 0;
	if (st == NULL)
		return e->code;
	sb_bind_text(db, st, ":format", format);
	sb_bind_text(db, st, ":sha256", sha256);
	rc = sb_db_step(db, st, e);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return rc < 0 ? e->code : SB_OK;
}

/* Resume an interrupted batch of the same input into *out, if there is one. */
static int find_resumable(sb_db *db, const char *format, const char *sha256,
                          sb_batch *out, sb_err *e)
{
	sqlite3_stmt *st = sb_db_stmt(db, "batch_find_resumable", e);
	int rc;

	if (st == NULL)
		return e->code;
	sb_bind_text(db, st, ":format", format);
	sb_bind_text(db, st, ":sha256", sha256);
	rc = sb_db_step(db, st, e);
	if (rc == SQLITE_ROW) {
		out->id = sqlite3_column_int64(st, 0);
		out->resume_offset = sqlite3_column_int64(st, 1);
		out->resume_line = sqlite3_column_int64(st, 2);
		out->accepted = sqlite3_column_int64(st, 3);
		out->duplicates = sqlite3_column_int64(st, 4);
		out->rejected = sqlite3_column_int64(st, 5);
		out->replaced = sqlite3_column_int64(st, 6);
		out->skipped = sqlite3_column_int64(st, 7);
		out->resumed = true;
	}
	sqlite3_reset(st);
	return rc < 0 ? e->code : SB_OK;
}

int sb_batch_begin(sb_db *db, const char *kind, const char *format,
                   const char *source, const char *sha256, const char *options,
                   sb_batch *out, sb_err *e)
{
	sqlite3_stmt *st;

	memset(out, 0, sizeof *out);
	out->resume_line = 1;
	if (sb_db_begin(db, e) != SB_OK)
		return e->code;
	if ((st = sb_db_stmt(db, "batch_mark_interrupted", e)) == NULL || sb_db_run(db, st, e) != SB_OK)
		goto fail;
	if (sha256 != NULL && find_resumable(db, format, sha256, out, e) != SB_OK)
		goto fail;
	if (out->resumed) {
		if ((st = sb_db_stmt(db, "batch_resume", e)) == NULL)
			goto fail;
		sb_bind_text(db, st, ":options", options);
		sb_bind_i64(db, st, ":batch_id", out->id);
	} else {
		if ((st = sb_db_stmt(db, "batch_insert", e)) == NULL)
			goto fail;
		sb_bind_text(db, st, ":kind", kind);
		sb_bind_text(db, st, ":format", format);
		sb_bind_text(db, st, ":source", source);
		sb_bind_text_opt(db, st, ":sha256", sha256);
		sb_bind_i64(db, st, ":started_ms", sb_now_ms());
		sb_bind_text(db, st, ":options", options);
	}
	if (sb_db_run(db, st, e) != SB_OK)
		goto fail;
	if (!out->resumed)
		out->id = sqlite3_last_insert_rowid(sb_db_handle(db));
	return sb_db_commit(db, e);
fail:
	sb_db_rollback(db);
	return e->code;
}

int sb_batch_save(sb_db *db, const sb_batch *b, sb_err *e)
{
	sqlite3_stmt *st = sb_db_stmt(db, "batch_save", e);

	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":resume_offset", b->resume_offset);
	sb_bind_i64(db, st, ":resume_line", b->resume_line);
	sb_bind_i64(db, st, ":accepted", b->accepted);
	sb_bind_i64(db, st, ":duplicates", b->duplicates);
	sb_bind_i64(db, st, ":rejected", b->rejected);
	sb_bind_i64(db, st, ":replaced", b->replaced);
	sb_bind_i64(db, st, ":skipped", b->skipped);
	sb_bind_i64(db, st, ":batch_id", b->id);
	return sb_db_run(db, st, e);
}

int sb_batch_reject(sb_db *db, const sb_batch *b, int64_t line_no, const char *reason,
                    const char *content, size_t len, int64_t full_len, sb_err *e)
{
	sqlite3_stmt *st = sb_db_stmt(db, "reject_insert", e);

	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":batch_id", b->id);
	sb_bind_i64(db, st, ":line_no", line_no);
	sb_bind_text(db, st, ":reason", reason);
	sb_bind_blob(db, st, ":content", len > 0 ? content : "", len);
	sb_bind_i64(db, st, ":full_length", full_len);
	return sb_db_run(db, st, e);
}

int sb_batch_end(sb_db *db, const sb_batch *b, const char *status, const char *sha256,
                 sb_err *e)
{
	sqlite3_stmt *st;

	if (sb_batch_save(db, b, e) != SB_OK)
		return e->code;
	if ((st = sb_db_stmt(db, "batch_end", e)) == NULL)
		return e->code;
	sb_bind_text(db, st, ":status", status);
	sb_bind_i64(db, st, ":ended_ms", sb_now_ms());
	sb_bind_text_opt(db, st, ":sha256", sha256);
	sb_bind_i64(db, st, ":batch_id", b->id);
	return sb_db_run(db, st, e);
}
