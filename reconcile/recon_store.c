/* recon_store.c: a reconciliation stored (see reconcile.h, sb_recon_store). */
#include "reconcile/reconcile.h"

#include "ledger/money.h"
#include "reconcile/flags.h"

/* Store one backend's result. */
static int store_backend(sb_db *db, int64_t id, const sb_recon_backend *b, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "recon_backend_insert", e);

	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":recon_id", id);
	sb_bind_text(db, st, ":backend", b->backend);
	sb_bind_text(db, st, ":status", sb_recon_status_name(b->status));
	sb_bind_text_opt(db, st, ":basis", sb_recon_basis_name(b->basis));
	sb_bind_i64(db, st, ":runs", b->runs);
	sb_bind_i64(db, st, ":computed_nanos", b->computed_nanos);
	sb_bind_i64_opt(db, st, ":billed_nanos", b->has_billed, b->billed_nanos);
	sb_bind_i64_opt(db, st, ":drift_nanos", b->has_drift, b->drift_nanos);
	sb_bind_i64_opt(db, st, ":tax_nanos", b->has_tax, b->tax_nanos);
	sb_bind_text_opt(db, st, ":verdict", sb_verdict_name(b->explain.verdict));
	sb_bind_i64(db, st, ":window_from_ms", b->window.from_ms);
	sb_bind_i64(db, st, ":window_to_ms", b->window.to_ms);
	sb_bind_i64(db, st, ":flagged", b->flagged);
	sb_bind_i64(db, st, ":sessions_flagged", b->sessions_flagged);
	sb_bind_text(db, st, ":grain", sb_grain_name(b->grain));
	sb_bind_i64(db, st, ":abs_nanos", b->abs_nanos);
	sb_bind_i64(db, st, ":rel_ppb", b->rel_ppb);
	return sb_db_run(db, st, e);
}

/* Store one listed session's result. */
static int store_session(sb_db *db, int64_t id, const sb_recon_session *s, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "recon_session_insert", e);
	int64_t drift = 0;
	bool has_drift = s->has_billed && sb_money_sub(s->billed_nanos, s->computed_nanos, &drift) == SB_MONEY_OK;

	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":recon_id", id);
	sb_bind_text(db, st, ":backend", s->backend);
	sb_bind_text_opt(db, st, ":session_id", s->session_id);
	sb_bind_text(db, st, ":status", sb_recon_status_name(s->status));
	sb_bind_i64(db, st, ":computed_nanos", s->computed_nanos);
	sb_bind_i64_opt(db, st, ":billed_nanos", s->has_billed, s->billed_nanos);
	sb_bind_i64_opt(db, st, ":drift_nanos", has_drift, drift);
	sb_bind_i64(db, st, ":flagged", s->flagged);
	return sb_db_run(db, st, e);
}

int sb_recon_store(sb_db *db, sb_recon *r, const char *result_json, sb_flags *moves, sb_err *e)
{
	sb_stmt *st;
	int64_t id;

	if (result_json == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	if (sb_db_begin(db, e) != SB_OK || (st = sb_db_stmt(db, "recon_insert", e)) == NULL)
		goto fail;
	sb_bind_i64(db, st, ":created_ms", sb_db_now_ms(db));
	sb_bind_i64(db, st, ":from_ms", r->opts.period.from_ms);
	sb_bind_i64(db, st, ":to_ms", r->opts.period.to_ms);
	sb_bind_i64(db, st, ":abs_nanos", r->opts.abs_nanos);
	sb_bind_i64(db, st, ":rel_ppb", r->opts.rel_ppb);
	sb_bind_i64(db, st, ":backends", (int64_t)r->n_backends);
	sb_bind_i64(db, st, ":flagged", r->flagged);
	sb_bind_text(db, st, ":result", result_json);
	sb_bind_i64(db, st, ":judged_ms", r->opts.now_ms);
	sb_bind_i64(db, st, ":billing_lag_ms", r->opts.billing_lag_ms);
	sb_bind_i64(db, st, ":flagged_backends", r->flagged_backends);
	sb_bind_i64(db, st, ":flagged_sessions", r->flagged_sessions);
	sb_bind_i64(db, st, ":change_id", r->change_id);
	if (sb_db_run(db, st, e) != SB_OK)
		goto fail;
	id = sb_db_last_id(db);
	for (size_t i = 0; i < r->n_backends; i++)
		if (store_backend(db, id, &r->backends[i], e) != SB_OK)
			goto fail;
	for (size_t i = 0; i < r->n_sessions; i++)
		if (store_session(db, id, &r->sessions[i], e) != SB_OK)
			goto fail;
	r->recon_id = id;
	if (sb_flags_judge(db, r, moves, e) != SB_OK || sb_db_commit(db, e) != SB_OK) {
		r->recon_id = 0;
		goto fail;
	}
	return SB_OK;
fail:
	sb_db_rollback(db);
	return e->code;
}
