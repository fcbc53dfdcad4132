/* explain.h: the drift of a backend or a session (billed B minus computed
 * C) split exactly, in nanodollars, into parts that add up to it
 * (docs/reconcile.md, "Explain"), and the verdict that follows from them.
 *
 * With K the card cost of the commands, L the life of the runs at the
 * card (a run with no ended_at counts its commands only: L = K), L' = L
 * less the paused time the provider's events show (gaps between E2B
 * execution segments of a session, inside a run's life) and Q x card the
 * billed quantity at the card where every line states one in minutes or
 * seconds:
 *
 *   card     = K - C         the SDK's estimate against the card
 *   idle     = L - K         life not covered by commands (before the
 *                            first, between, after the last when every
 *                            execution carries started_at)
 *   paused   = L' - L        paused time the provider does not bill (<= 0)
 *   metering = Q x card - L' what the provider metered beyond the life
 *   price    = B - Q x card  the provider's rate against the card's
 *   billed_beyond_lifetime = B - L'   (no Q: metering and price as one)
 *
 * reconcile's verdict (reconcile.h) is sb_parts_verdict of the backend's
 * parts, loaded by sb_xparts_backend: the two commands never disagree.
 * Library code: nothing here prints.
 */
#ifndef SB_EXPLAIN_H
#define SB_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ledger/db.h"
#include "ledger/err.h"
#include "ledger/period.h"
#include "ledger/rates.h"
#include "reconcile/reconcile.h"

/* The figures and parts of one scope (a session, a backend). */
typedef struct sb_parts {
	bool priced;            /* every run had a card: K and L are known */
	int64_t computed;       /* C */
	int64_t card_cost;      /* K */
	int64_t lifetime;       /* L */
	int64_t unpaused;       /* L' */
	bool has_billed;        /* B is known (else no part is) */
	int64_t billed;         /* B */
	bool has_q;             /* every billed line states a time quantity */
	int64_t q_card;         /* Q x card */
	int64_t q_minutes;      /* Q in minutes x 10^9 */
	int64_t exec_ms;        /* command time */
	int64_t lifetime_ms;    /* life of the runs that ended */
	int64_t paused_ms;      /* paused time inside that life */
	int64_t runs;           /* runs */
	int64_t ended;          /* of them with ended_at */
	int64_t split_runs;     /* ended runs whose executions all carry started_at */
	int64_t before_ms, between_ms, after_ms;      /* idle time of those */
	int64_t idle_before_nanos, idle_after_nanos;  /* before and after at the card */
	/* the parts (valid when settled: priced and has_billed) */
	bool settled;
	int64_t card, idle, paused, metering, price, beyond;
	bool has_split;         /* every ended run is split (and one is) */
	int64_t idle_before, idle_between, idle_after;
} sb_parts;

/* One run of a scope, as explain names it. */
typedef struct sb_xrun {
	char *run_id;
	char *session_id;       /* NULL: named none */
	int64_t started_ms;
	bool has_ended;
	int64_t ended_ms;
	int64_t exec_ms;        /* total_duration_ms */
	int64_t exec_count;
	int64_t computed;       /* computed_cost_usd */
	bool has_card;
	int64_t card_cost;      /* K of the run */
	int64_t lifetime;       /* L of the run (K when not ended) */
	int64_t paused_ms;      /* paused time in its life */
	int64_t paused;         /* -(that at the card) */
	bool has_split;         /* every execution carries started_at */
	int64_t before_ms, between_ms, after_ms;
	int64_t idle_before, idle_after;              /* at the card */
	int64_t rate;           /* the card's usd_per_minute (0: free or none) */
} sb_xrun;

/* One execution of a run. */
typedef struct sb_xexec {
	size_t run;             /* index into the backend's runs */
	char *command;          /* NULL when none was recorded */
	bool has_start;
	int64_t started_ms;
	int64_t duration_ms;
	bool has_cost;
	int64_t cost;
} sb_xexec;

/* How a billing line was matched to runs (DESIGN: session, charge, time). */
typedef enum sb_match_rule {
	SB_MATCH_NONE,          /* no run: provider-only */
	SB_MATCH_SESSION,       /* the same backend and session */
	SB_MATCH_TIME           /* account-level: runs overlapping its time */
} sb_match_rule;

const char *sb_match_rule_name(sb_match_rule rule);

/* One billing line of a scope. */
typedef struct sb_xline {
	int64_t lid;
	char *format;
	char *line_key;
	char *session_id;       /* NULL: account-level */
	char *kind;             /* billed or metered */
	bool has_amount;
	int64_t amount;         /* in its currency x 10^9 */
	char *currency;
	char *category;
	int64_t start_ms, end_ms;
	char *quantity, *unit;  /* as the provider gave them, NULL when none */
	bool has_q;             /* a time quantity */
	int64_t q_card;         /* it at the card */
	int64_t q_minutes;      /* it in minutes x 10^9 (seconds / 60, half to even) */
	sb_match_rule rule;     /* how it matched runs */
	int64_t matched_runs;   /* how many */
} sb_xline;

/* A command of a scope, summed over its executions. */
typedef struct sb_xcommand {
	char *text;             /* NULL when none was recorded */
	int64_t execs;
	int64_t duration_ms;
	bool has_cost;
	int64_t cost;
} sb_xcommand;

/* A session of a backend whose lines name sessions. */
typedef struct sb_xsession {
	char *session_id;       /* NULL: the runs that named no session */
	sb_recon_status status;
	sb_parts parts;
	size_t *runs;           /* indices into the backend's runs */
	size_t n_runs;
	size_t *lines;          /* indices into the backend's lines */
	size_t n_lines;
	sb_xcommand *commands;  /* the costliest first, at most top */
	size_t n_commands;
	bool provider_only;     /* lines and no run */
	bool ours_only;         /* runs and no line */
	sb_verdict verdict;     /* from its parts, when its drift is flagged */
} sb_xsession;

/* A backend explained. */
typedef struct sb_xbackend {
	const sb_recon_backend *b;  /* borrowed from the reconciliation */
	bool per_session;       /* its lines name sessions: explained per session */
	sb_parts parts;         /* its parts (what reconcile's verdict read) */
	sb_xrun *runs;
	size_t n_runs;
	sb_xexec *execs;
	size_t n_execs;
	sb_xline *lines;
	size_t n_lines;
	sb_xsession *sessions;
	size_t n_sessions;
	sb_xcommand *commands;  /* the backend's costliest commands */
	size_t n_commands;
	int64_t provider_only;  /* lines with no run: their USD sum */
	int64_t provider_only_lines;
	int64_t ours_only;      /* runs with no line: their computed sum */
	int64_t ours_only_runs;
} sb_xbackend;

typedef struct sb_explain_opts {
	sb_recon_opts recon;    /* the period, tolerances, now, lag */
	const char *backend;    /* only this backend (NULL: every one) */
	const char *session;    /* only this session (NULL: every one) */
	size_t top;             /* commands named per scope */
} sb_explain_opts;

typedef struct sb_explained {
	sb_recon *r;            /* the reconciliation explained (dry run) */
	sb_xbackend *backends;
	size_t n_backends;
} sb_explained;

/* The parts of a scope settled from its figures: SB_EDATA when a part
 * overflows 64-bit nanodollars.  Nothing is settled (p->settled false)
 * unless priced and has_billed. */
int sb_parts_settle(sb_parts *p, sb_err *e);

/* The verdict on a flagged drift from the parts: lifetime when
 * |metering + price| (B - L') is within the tolerance of L'; else rate
 * when |price| exceeds rel_ppb of Q x card (no Q: B - L' against L') and
 * has the drift's sign (a card out of date in the other direction would
 * widen the drift); else unexplained.  SB_VERDICT_NONE when not settled. */
sb_verdict sb_parts_verdict(const sb_parts *p, int64_t drift, int64_t abs_nanos, int64_t rel_ppb);

/* The parts of backend b (its window, billed and computed as reconcile
 * judged them), with rates the ledger's cards: what reconcile's verdict
 * follows from.  per_session: its lines name sessions. */
int sb_xparts_backend(sb_db *db, const sb_rates *rates, const sb_recon_backend *b, bool per_session,
                      sb_parts *out, sb_err *e);

/* Explain the period: reconcile it (never stored), then split each
 * backend's drift and its sessions'.  The caller owns *out
 * (sb_explained_free). */
int sb_explain_period(sb_db *db, const sb_explain_opts *o, sb_explained **out, sb_err *e);

void sb_explained_free(sb_explained *x);

#endif
