/* flags.h: the flags of stored results, and their handling
 * (docs/reconcile.md, "Flags").
 *
 * A flag is a flagged backend or session of a stored result at its
 * backend's grain (a day for a backend billed by the day, a calendar
 * month for one billed by the month).  It keeps one id across the
 * re-judgments of the same period, backend and session.  Its states:
 * open (new or reopened, not handled), handled (acked, waived or
 * disputed), resolved (no longer flagged, or a dispute resolved).  A
 * handled flag whose figures a re-judgment gives again stays handled;
 * when they change it reopens.  A re-judgment that no longer flags it
 * resolves it, naming the batch that did.  Every event is kept
 * (flag_event).
 */
#ifndef SB_FLAGS_H
#define SB_FLAGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ledger/db.h"
#include "ledger/period.h"
#include "reconcile/reconcile.h"

/* What a stored result did to one flag. */
typedef enum sb_flag_move {
	SB_FLAG_RAISED,     /* new, or flagged again after it was resolved: open */
	SB_FLAG_STILL_OPEN, /* open before, still flagged: open */
	SB_FLAG_KEPT,       /* handled, the same figures: stays handled (not mailed) */
	SB_FLAG_REOPENED,   /* handled, its figures changed: open again */
	SB_FLAG_RESOLVED    /* no longer flagged: resolved */
} sb_flag_move;

/* One flag as stored. */
typedef struct sb_flag {
	int64_t id;                  /* its number */
	sb_period period;            /* a UTC day or a calendar month */
	char backend[65];            /* backend id */
	bool is_session;             /* a session of the backend, not the backend */
	char *session_id;            /* the session (NULL: the backend, or runs naming none) */
	char state[12];              /* "open", "handled", "resolved" */
	char handling[12];           /* "ack", "waive", "dispute", "resolved" or "" */
	sb_recon_status status;      /* the status last judged */
	int64_t computed_nanos;      /* its figures last judged */
	bool has_billed;
	int64_t billed_nanos;
	bool has_drift;
	int64_t drift_nanos;
	int64_t at_stake_nanos;      /* the money at stake: |drift| where known, else computed
	                                (flag_list.sql) */
	int64_t recon_id;            /* the latest result that judged it */
	int64_t opened_ms;           /* first raised */
	int64_t updated_ms;          /* last changed */
	bool reopened;               /* its figures changed while it was handled */
	int64_t resolved_by_batch;   /* the batch whose change resolved it, 0 none */
	char *reason;                /* the last handling's reason, NULL none */
	char *who;                   /* who handled it last, NULL none */
	sb_flag_move move;           /* sb_flags_judge: what the result did to it */
	char *what_changed;          /* sb_flags_judge, SB_FLAG_REOPENED: the figures that moved */
} sb_flag;

/* A list of flags (the caller frees it: sb_flags_free). */
typedef struct sb_flags {
	sb_flag *list;
	size_t n;
	size_t cap;
} sb_flags;

/* Which flags sb_flags_list gives. */
typedef enum sb_flags_which {
	SB_FLAGS_UNRESOLVED,   /* open and handled (the default) */
	SB_FLAGS_OPEN,         /* open only */
	SB_FLAGS_ALL,          /* every one */
	SB_FLAGS_DISPUTED      /* handled as disputes */
} sb_flags_which;

/* Raise, keep, reopen and resolve the flags of stored result r (its
 * recon_id set), inside the caller's transaction: each backend of r at
 * its grain, and its sessions.  What happened to each flag is appended to
 * *moves (may be NULL). */
int sb_flags_judge(sb_db *db, const sb_recon *r, sb_flags *moves, sb_err *e);

/* The flags of which kind, of periods that meet p (NULL: every period),
 * by period, backend, session; appended to *out. */
int sb_flags_list(sb_db *db, sb_flags_which which, const sb_period *p, sb_flags *out, sb_err *e);

/* The statement 'sbledger flags' lists (sql/queries/flag_list.sql: its
 * columns up to reason), bound for the flags which of the periods that
 * meet p (NULL: every period); borrowed from db, NULL with e set when it
 * cannot be prepared. */
sb_stmt *sb_flags_stmt(sb_db *db, sb_flags_which which, const sb_period *p, sb_err *e);

/* Handle flag id: action "ack", "waive", "dispute" (open or handled),
 * "resolve" (a dispute), "reopen" (handled, or a dispute resolved by
 * hand), with reason (required but for reopen) and who, in one
 * transaction.  A flag that does not exist is SB_EDATA; an action its
 * state does not allow is SB_EDATA naming its state.  *out (may be NULL)
 * gets the flag as it is after. */
int sb_flags_handle(sb_db *db, int64_t id, const char *action, const char *reason,
                    const char *who, sb_flag *out, sb_err *e);

/* Free what a flag holds (not the flag). */
void sb_flag_clear(sb_flag *f);

/* Free the list's flags and the list (not l). */
void sb_flags_free(sb_flags *l);

#endif
