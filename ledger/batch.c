/* batch.c: import batches and rejected lines (see batch.h). */
#include "ledger/batch.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ledger/changes.h"
#include "ledger/names.h"
#include "ledger/sqlfiles.h"

/* The names of the statuses, by their enum. */
static const char *const status_names[] = {
	[SB_BATCH_RUNNING] = "running",
	[SB_BATCH_INTERRUPTED] = "interrupted",
	[SB_BATCH_COMPLETE] = "complete",
	[SB_BATCH_FAILED] = "failed",
};

const char *sb_batch_status_name(sb_batch_status status)
{
	return status_names[status];
}

int sb_batch_status_parse(const char *name, sb_batch_status *out, sb_err *e)
{
	int i = 0;

	if (sb_name_parse(SB_NAMES(status_names), "a batch status", name, &i, e) != SB_OK)
		return e->code;
	*out = (sb_batch_status)i;
	return SB_OK;
}

/* The next word of the options text *p that changes what an import
 * stores (not "strict" or "force"): its length, *p moved to its start
 * (0 at the end). */
static size_t request_word(const char **p)
{
	for (;;) {
		size_t len;

		*p += strspn(*p, " ");
		len = strcspn(*p, " ");
		if (!((len == 6 && strncmp(*p, "strict", 6) == 0) || (len == 5 && strncmp(*p, "force", 5) == 0)))
			return len;
		*p += len;
	}
}

/* Whether options a and b (space separated words) ask the same of an
 * import: the same words, in order, leaving out "strict" and "force". */
static bool same_request(const char *a, const char *b)
{
	for (;;) {
		size_t la = request_word(&a), lb = request_word(&b);

		if (la != lb || strncmp(a, b, la) != 0)
			return false;
		if (la == 0)
			return true;
		a += la;
		b += lb;
	}
}

int sb_batch_find_complete(sb_db *db, const char *format, const char *sha256,
                           const char *options, int64_t *id, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "batch_find_complete", e);
	int rc;

	*id = 0;
	if (st == NULL)
		return e->code;
	sb_bind_text(db, st, ":format", format);
	sb_bind_text(db, st, ":sha256", sha256);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		const char *had = sb_col_text(st, 1);

		if (same_request(had != NULL ? had : "", options)) {
			*id = sb_col_i64(st, 0);
			break;
		}
	}
	sb_stmt_reset(st);
	return rc < 0 ? e->code : SB_OK;
}

int sb_batch_mark_interrupted(sb_db *db, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "batch_mark_interrupted", e);

	return st == NULL ? e->code : sb_db_run(db, st, e);
}

/* Copy the text of column col (NULL: "") into out[65]. */
static void col_hex(sb_stmt *st, int col, char out[65])
{
	const char *text = sb_col_text(st, col);

	snprintf(out, 65, "%s", text != NULL ? text : "");
}

int sb_batch_find_resumable(sb_db *db, const char *format, const char *path,
                            const char *sha256, sb_batch *out, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "batch_find_resumable", e);
	int rc;

	memset(out, 0, sizeof *out);
	out->resume_line = 1;
	if (st == NULL)
		return e->code;
	sb_bind_text(db, st, ":format", format);
	sb_bind_text_opt(db, st, ":path", path);
	sb_bind_text_opt(db, st, ":sha256", sha256);
	rc = sb_db_step(db, st, e);
	if (rc == SB_ROW) {
		out->id = sb_col_i64(st, 0);
		out->resume_offset = sb_col_i64(st, 1);
		out->resume_line = sb_col_i64(st, 2);
		out->accepted = sb_col_i64(st, 3);
		out->duplicates = sb_col_i64(st, 4);
		out->rejected = sb_col_i64(st, 5);
		out->replaced = sb_col_i64(st, 6);
		out->skipped = sb_col_i64(st, 7);
		col_hex(st, 8, out->sha256);
		out->prefix_length = sb_col_i64(st, 9);
		col_hex(st, 10, out->prefix_sha256);
	}
	sb_stmt_reset(st);
	return rc < 0 ? e->code : SB_OK;
}

int sb_batch_can_take_out(sb_db *db, int64_t id, bool *ok, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "batch_take_out_blocked", e);
	int rc;

	*ok = false;
	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":batch_id", id);
	rc = sb_db_step(db, st, e);
	if (rc == SB_ROW)
		*ok = sb_col_i64(st, 0) == 0 && sb_col_i64(st, 1) == 0;
	sb_stmt_reset(st);
	return rc < 0 ? e->code : SB_OK;
}

int sb_batch_open(sb_db *db, const char *kind, const char *format, const char *source,
                  const char *path, const char *sha256, const char *options,
                  const sb_batch *resume, sb_batch *out, sb_err *e)
{
	sb_stmt *st;

	memset(out, 0, sizeof *out);
	out->resume_line = 1;
	if (resume != NULL) {
		*out = *resume;
		out->resumed = true;
	}
	if (sb_db_begin(db, e) != SB_OK)
		return e->code;
	if (out->resumed) {
		if ((st = sb_db_stmt(db, "batch_resume", e)) == NULL)
			goto fail;
		sb_bind_text(db, st, ":options", options);
		sb_bind_text_opt(db, st, ":sha256", sha256);
		sb_bind_i64(db, st, ":batch_id", out->id);
	} else {
		if ((st = sb_db_stmt(db, "batch_insert", e)) == NULL)
			goto fail;
		sb_bind_text(db, st, ":kind", kind);
		sb_bind_text(db, st, ":format", format);
		sb_bind_text(db, st, ":source", source);
		sb_bind_text_opt(db, st, ":path", path);
		sb_bind_text_opt(db, st, ":sha256", sha256);
		sb_bind_i64(db, st, ":started_ms", sb_db_now_ms(db));
		sb_bind_text(db, st, ":options", options);
	}
	if (sb_db_run(db, st, e) != SB_OK)
		goto fail;
	if (!out->resumed)
		out->id = sb_db_last_id(db);
	return sb_db_commit(db, e);
fail:
	sb_db_rollback(db);
	return e->code;
}

int sb_batch_begin(sb_db *db, const char *kind, const char *format,
                   const char *source, const char *sha256, const char *options,
                   sb_batch *out, sb_err *e)
{
	sb_batch found;

	memset(&found, 0, sizeof found);
	if (sb_batch_mark_interrupted(db, e) != SB_OK ||
	    (sha256 != NULL && sb_batch_find_resumable(db, format, NULL, sha256, &found, e) != SB_OK))
		return e->code;
	return sb_batch_open(db, kind, format, source, NULL, sha256, options,
	                     found.id > 0 ? &found : NULL, out, e);
}

/* Store the tags of the restored run rid again from its tags JSON, as the
 * run parser made them: strings as they are, numbers and booleans as
 * their JSON text, null tags left out. */
static int restore_tags(sb_db *db, int64_t rid, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "run_tags_json", e);
	json_t *tags = NULL, *v;
	const char *key;
	int rc;

	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":rid", rid);
	if ((rc = sb_db_step(db, st, e)) == SB_ROW && !sb_col_is_null(st, 0))
		tags = json_loads(sb_col_text(st, 0), 0, NULL);
	else if (rc == SB_ROW)
		rc = SB_DONE;
	if (rc == SB_ROW && !json_is_object(tags))
		sb_fail(e, SB_EINTERNAL, "run %lld: its stored tags are not a JSON object", (long long)rid);
	sb_stmt_reset(st);
	json_object_foreach(tags, key, v) {
		char *dumped = NULL;
		if (e->code != SB_OK || json_is_null(v))
			continue;
		if (!json_is_string(v) &&
		    (dumped = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY)) == NULL) {
			sb_fail(e, SB_EINTERNAL, "out of memory");
			continue;
		}
		if ((st = sb_db_stmt(db, "run_tag_insert", e)) != NULL) {
			sb_bind_i64(db, st, ":rid", rid);
			sb_bind_text(db, st, ":name", key);
			sb_bind_text(db, st, ":value", dumped != NULL ? dumped : json_string_value(v));
			sb_db_run(db, st, e);
		}
		free(dumped);
	}
	json_decref(tags);
	return e->code;
}

/* Put back the replaced version hid of a run: the run, its executions,
 * its tags, its place in the day rollups (by day, by tag, untagged). */
static int restore_run(sb_db *db, int64_t hid, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "run_restore", e);
	int64_t rid;

	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":hid", hid);
	if (sb_db_run(db, st, e) != SB_OK)
		return e->code;
	rid = sb_db_last_id(db);
	if ((st = sb_db_stmt(db, "run_execs_restore", e)) == NULL)
		return e->code;
	sb_bind_i64(db, st, ":hid", hid);
	sb_bind_i64(db, st, ":rid", rid);
	if (sb_db_run(db, st, e) != SB_OK || restore_tags(db, rid, e) != SB_OK)
		return e->code;
	if ((st = sb_db_stmt(db, "rollup_day_restore", e)) == NULL)
		return e->code;
	sb_bind_i64(db, st, ":rid", rid);
	if (sb_db_run(db, st, e) != SB_OK)
		return e->code;
	if ((st = sb_db_stmt(db, "rollup_tag_restore", e)) == NULL)
		return e->code;
	sb_bind_i64(db, st, ":rid", rid);
	if (sb_db_run(db, st, e) != SB_OK)
		return e->code;
	if ((st = sb_db_stmt(db, "rollup_untagged_restore", e)) == NULL)
		return e->code;
	sb_bind_i64(db, st, ":rid", rid);
	return sb_db_run(db, st, e);
}

/* Put back, for each run batch b replaced, the version it had before b:
 * the oldest history row of the run_id replaced by b, unless b had
 * brought that version itself (a run_id twice in one file: new in b). */
static int restore_replaced(sb_db *db, int64_t batch_id, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "batch_replaced_list", e);
	int64_t *hids = NULL;
	size_t n = 0, cap = 0;
	char last[300] = "";
	int rc;

	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":batch_id", batch_id);
	/* collected first: restoring writes to the tables being read */
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		const char *run_id = sb_col_text(st, 1);
		bool first = strcmp(run_id, last) != 0;
		snprintf(last, sizeof last, "%s", run_id);
		if (!first || sb_col_i64(st, 2) == batch_id)
			continue;
		if (n == cap) {
			size_t ncap = cap > 0 ? 2 * cap : 64;
			int64_t *more = realloc(hids, ncap * sizeof *hids);
			if (more == NULL) {
				sb_fail(e, SB_EINTERNAL, "out of memory");
				break;
			}
			hids = more;
			cap = ncap;
		}
		hids[n++] = sb_col_i64(st, 0);
	}
	sb_stmt_reset(st);
	for (size_t i = 0; i < n && e->code == SB_OK; i++)
		restore_run(db, hids[i], e);
	free(hids);
	return e->code;
}

int sb_batch_take_out(sb_db *db, sb_batch *b, const char *reason, sb_err *e)
{
	sb_stmt *st;

	/* what it had changed is logged first: results that saw it are stale */
	if (sb_change_batch(db, b->id, e) != SB_OK ||
	    sb_db_run_each(db, "queries/batch_take_out", ":batch_id", b->id, e) != SB_OK ||
	    restore_replaced(db, b->id, e) != SB_OK ||
	    sb_db_run_each(db, "queries/batch_take_out_end", ":batch_id", b->id, e) != SB_OK ||
	    sb_db_exec_file(db, "queries/rollup_fix_max", e) != SB_OK)
		return e->code;
	if ((st = sb_db_stmt(db, "batch_fail", e)) == NULL)
		return e->code;
	sb_bind_text(db, st, ":reason", reason);
	sb_bind_i64(db, st, ":ended_ms", sb_db_now_ms(db));
	sb_bind_i64(db, st, ":batch_id", b->id);
	if (sb_db_run(db, st, e) != SB_OK)
		return e->code;
	b->accepted = b->duplicates = b->rejected = b->replaced = b->skipped = 0;
	b->resume_offset = 0;
	b->resume_line = 1;
	b->prefix_length = 0;
	b->prefix_sha256[0] = '\0';
	return SB_OK;
}

int sb_batch_save(sb_db *db, const sb_batch *b, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "batch_save", e);

	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":resume_offset", b->resume_offset);
	sb_bind_i64(db, st, ":resume_line", b->resume_line);
	sb_bind_i64(db, st, ":accepted", b->accepted);
	sb_bind_i64(db, st, ":duplicates", b->duplicates);
	sb_bind_i64(db, st, ":rejected", b->rejected);
	sb_bind_i64(db, st, ":replaced", b->replaced);
	sb_bind_i64(db, st, ":skipped", b->skipped);
	sb_bind_i64_opt(db, st, ":prefix_length", b->prefix_sha256[0] != '\0', b->prefix_length);
	sb_bind_text_opt(db, st, ":prefix_sha256", b->prefix_sha256[0] != '\0' ? b->prefix_sha256 : NULL);
	sb_bind_i64(db, st, ":batch_id", b->id);
	return sb_db_run(db, st, e);
}

int sb_batch_reject(sb_db *db, const sb_batch *b, int64_t line_no, const char *reason,
                    const char *content, size_t len, int64_t full_len, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "reject_insert", e);

	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":batch_id", b->id);
	sb_bind_i64(db, st, ":line_no", line_no);
	sb_bind_text(db, st, ":reason", reason);
	sb_bind_blob(db, st, ":content", len > 0 ? content : "", len);
	sb_bind_i64(db, st, ":full_length", full_len);
	return sb_db_run(db, st, e);
}

int sb_batch_end(sb_db *db, const sb_batch *b, sb_batch_status status, const char *sha256,
                 sb_err *e)
{
	sb_stmt *st;

	if (status != SB_BATCH_COMPLETE && status != SB_BATCH_FAILED)
		return sb_fail(e, SB_EINTERNAL, "batch %lld: a batch ends complete or failed, not %s",
		               (long long)b->id, sb_batch_status_name(status));
	if (sb_batch_save(db, b, e) != SB_OK)
		return e->code;
	if ((st = sb_db_stmt(db, "batch_end", e)) == NULL)
		return e->code;
	sb_bind_text(db, st, ":status", sb_batch_status_name(status));
	sb_bind_i64(db, st, ":ended_ms", sb_db_now_ms(db));
	sb_bind_text_opt(db, st, ":sha256", sha256);
	sb_bind_i64(db, st, ":batch_id", b->id);
	if (sb_db_run(db, st, e) != SB_OK)
		return e->code;
	/* a complete batch's runs and lines make the results they meet stale
	 * (a failed one kept nothing: its take-out logged what it had) */
	return status == SB_BATCH_COMPLETE ? sb_change_batch(db, b->id, e) : SB_OK;
}
