/* recon_words.c: what a backend's reconciliation means, in words that
 * agree with its figures (see recon_words.h and
 * docs/reconcile.md).  Every amount is printed with 6 decimals as the
 * tables print them, rates with 9; nothing here allocates.
 */
#include "report/recon_words.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ledger/money.h"
#include "ledger/quote.h"
#include "ledger/timefmt.h"

/* Text being written into a fixed buffer (cut when full). */
typedef struct words {
	char *buf;      /* the buffer */
	size_t cap;     /* its size */
	size_t len;     /* written so far */
	const char *run; /* the words a command begins with (sb_invocation_words) */
} words;

/* Append formatted text to w. */
static void say(words *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(words *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (w->len + 1 >= w->cap)
		return;
	va_start(ap, fmt);
	n = vsnprintf(w->buf + w->len, w->cap - w->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		w->len = w->len + (size_t)n < w->cap ? w->len + (size_t)n : w->cap - 1;
}

/* Amounts in words: 6 decimals (m6), rates 9 (m9).  Each call needs its
 * own buffer. */
static const char *m6(int64_t nanos, char buf[SB_MONEY_BUFSZ])
{
	return sb_money_format(nanos, 6, buf);
}

static const char *m9(int64_t nanos, char buf[SB_MONEY_BUFSZ])
{
	return sb_money_format(nanos, 9, buf);
}

/* part / whole as a percentage with 2 decimals ("11.46%"), whole > 0. */
static const char *percent(__int128 part, int64_t whole, char buf[SB_MONEY_BUFSZ])
{
	int64_t hundredths = 0;

	if (part < 0)
		part = -part;
	if (whole <= 0 || sb_div_round_even(part * 10000, whole, &hundredths) != SB_MONEY_OK)
		return "?%";
	snprintf(buf, SB_MONEY_BUFSZ, "%lld.%02lld%%", (long long)(hundredths / 100),
	         (long long)(hundredths % 100));
	return buf;
}

/* An instant as --from takes it: the date when it is a UTC midnight,
 * else the whole timestamp. */
static const char *from_arg(int64_t ms, char buf[SB_TIME_BUFSZ])
{
	return ms == sb_day_start(ms) ? sb_date_format(ms, buf) : sb_time_format(ms, buf);
}

/* A duration in ms for a sentence: "72 h", "90 min", "45 s", "1500 ms". */
static const char *span_text(int64_t ms, char buf[SB_TIME_BUFSZ])
{
	if (ms % 3600000 == 0)
		snprintf(buf, SB_TIME_BUFSZ, "%lld h", (long long)(ms / 3600000));
	else if (ms % 60000 == 0)
		snprintf(buf, SB_TIME_BUFSZ, "%lld min", (long long)(ms / 60000));
	else if (ms % 1000 == 0)
		snprintf(buf, SB_TIME_BUFSZ, "%lld s", (long long)(ms / 1000));
	else
		snprintf(buf, SB_TIME_BUFSZ, "%lld ms", (long long)ms);
	return buf;
}

/* "sbledger lines --period WINDOW --backend B", the command that shows
 * the lines of b. */
static void say_lines_command(words *w, const sb_recon_backend *b)
{
	char name[96], backend[SB_QUOTE_BUFSZ];

	say(w, "%s lines --period %s --backend %s", w->run, sb_period_name(&b->window, name),
	    sb_quote(b->backend, SB_QUOTE_IF_NEEDED, backend, sizeof backend));
}

/* The backend as rates set's operand: *word the backend quoted for a
 * shell, *lead what goes before the options ("B " or "", when the backend
 * would be taken for an option and goes after them and "--"); returns
 * whether it goes after. */
static bool rates_operand(const sb_recon_backend *b, char word[SB_QUOTE_BUFSZ],
                          char lead[SB_QUOTE_BUFSZ + 1])
{
	bool dash = sb_quote_is_option(b->backend);

	sb_quote(b->backend, SB_QUOTE_IF_NEEDED, word, SB_QUOTE_BUFSZ);
	snprintf(lead, SB_QUOTE_BUFSZ + 1, "%s%s", dash ? "" : word, dash ? "" : " ");
	return dash;
}

/* no_rate of runs: the card cost of the runs with no card in force at
 * their start is unknown, never 0; the two ways out (ledger/rates.h). */
static void say_unpriced_runs(words *w, const sb_recon_backend *b)
{
	char t[SB_TIME_BUFSZ], fix[1024];

	say(w, "the card cost of %lld run%s is unknown, never 0: no rate card of %s is in force at %s "
	       "(it was never given rates set, or only from a later date); %s",
	    (long long)b->unpriced_runs, b->unpriced_runs == 1 ? "" : "s",
	    sb_quote(b->backend, SB_QUOTE_IF_NEEDED, (char[SB_QUOTE_BUFSZ]){0}, SB_QUOTE_BUFSZ),
	    sb_time_format(b->unpriced_from_ms, t), sb_rates_fix_text(b->backend, b->unpriced_from_ms, fix, sizeof fix));
}

/* no_rate of metered lines: which rates are missing and the command that
 * sets them on the card in force, keeping what it has (its per-minute
 * rate, a per-second rate it already has), so that the card is replaced
 * by itself plus the missing rates from the same instant. */
static void say_no_rate(words *w, const sb_recon_backend *b)
{
	const sb_rate_fix *f = &b->rate_fix;
	const sb_card *card = &f->card;
	char a[SB_MONEY_BUFSZ], r[SB_MONEY_BUFSZ], t[SB_TIME_BUFSZ];
	bool cpu = f->need_cpu || (f->has_card && card->has_per_cpu_second);
	bool gb = f->need_gb || (f->has_card && card->has_per_gb_second);
	const char *minute = m9(card->per_minute_nanos, a);
	bool cpu_open = f->need_cpu && !(f->has_newer && f->newer.has_per_cpu_second);
	bool gb_open = f->need_gb && !(f->has_newer && f->newer.has_per_gb_second);
	char word[SB_QUOTE_BUFSZ], lead[SB_QUOTE_BUFSZ + 1];
	bool dash = rates_operand(b, word, lead);

	say(w, "%lld metered line%s found no rate and %s left out, so billed is unknown: ",
	    (long long)f->lines, f->lines == 1 ? "" : "s", f->lines == 1 ? "was" : "were");
	if (!f->has_card) {
		say(w, "no rate card of %s is in force at %s; set one with the provider's prices (X per "
		       "minute of session life, Y per vCPU-second, Z per GiB-second): %s rates set %s"
		       "--usd-per-minute X",
		    word, sb_time_format(f->first_ms, t), w->run, lead);
	} else {
		say(w, "the card in force (from %s) has no price per %s; set %s on it, keeping its %s per "
		       "minute%s%s%s: %s rates set %s--usd-per-minute %s",
		    from_arg(card->effective_ms, t),
		    f->need_cpu && f->need_gb ? "vCPU-second nor per GiB-second" : f->need_cpu ? "vCPU-second" : "GiB-second",
		    f->need_cpu && f->need_gb ? "them" : "it", minute,
		    cpu_open || gb_open ? ", with the provider's price" : "",
		    cpu_open && gb_open ? "s in place of Y and Z" : "",
		    cpu_open != gb_open ? (cpu_open ? " in place of Y" : " in place of Z") : "", w->run, lead,
		    minute);
	}
	if (cpu) {
		if (f->need_cpu && !cpu_open)
			say(w, " --usd-per-cpu-second %s", m9(f->newer.per_cpu_second_nanos, r));
		else if (f->need_cpu)
			say(w, " --usd-per-cpu-second Y");
		else
			say(w, " --usd-per-cpu-second %s", m9(card->per_cpu_second_nanos, r));
	}
	if (gb) {
		if (f->need_gb && !gb_open)
			say(w, " --usd-per-gb-second %s", m9(f->newer.per_gb_second_nanos, r));
		else if (f->need_gb)
			say(w, " --usd-per-gb-second Z");
		else
			say(w, " --usd-per-gb-second %s", m9(card->per_gb_second_nanos, r));
	}
	say(w, " --from %s", from_arg(f->has_card ? card->effective_ms : sb_day_start(f->first_ms), t));
	if (dash)
		say(w, " -- %s", word);
	if (f->has_newer)
		say(w, " (the per-second rates filled in are those of its card from %s)",
		    from_arg(f->newer.effective_ms, t));
}

/* The verdict on a flagged drift in words. */
static void say_verdict(words *w, const sb_recon_backend *b)
{
	const sb_explain *x = &b->explain;
	char a[SB_MONEY_BUFSZ], c[SB_MONEY_BUFSZ], d[SB_MONEY_BUFSZ], e[SB_MONEY_BUFSZ], f[SB_MONEY_BUFSZ];
	bool over = b->drift_nanos > 0;

	if (x->verdict == SB_VERDICT_NONE) {
		say(w, "billed %s is %s computed %s by %s, beyond the tolerance; its runs have no ended_at, "
		       "so their lifetime cannot explain it: look at its lines (",
		    m6(b->billed_nanos, a), over ? "above" : "below", m6(b->computed_nanos, c),
		    m6(b->drift_nanos < 0 ? -b->drift_nanos : b->drift_nanos, d));
		say_lines_command(w, b);
		say(w, ")");
		return;
	}
	if (x->verdict == SB_VERDICT_LIFETIME && over) {
		say(w, "billed %s is the session lifetime at the card rate (%s; boot and idle are %s of it): "
		       "the provider bills session life, while the SDK counts command time only",
		    m6(b->billed_nanos, a), m6(x->lifetime_nanos, c),
		    x->has_idle ? m6(x->idle_nanos, d) : "an unknown part");
	} else if (x->verdict == SB_VERDICT_LIFETIME) {
		say(w, "billed %s is the session lifetime at the card rate (%s), yet computed %s is above "
		       "it: the runs' own estimates used a higher rate than the card's",
		    m6(b->billed_nanos, a), m6(x->lifetime_nanos, c), m6(b->computed_nanos, d));
	} else if (x->verdict == SB_VERDICT_RATE && x->has_billed_rate) {
		/* the lines state the minutes billed: their rate against the card's */
		__int128 diff = (__int128)x->billed_rate_nanos - x->card_rate_nanos;
		say(w, "the provider bills %s per minute billed (%s minutes on its lines) and the card says %s: "
		       "the card is too %s by %s per minute (%s of the card's rate)",
		    m9(x->billed_rate_nanos, a), sb_money_format(x->billed_minutes, 3, f), m9(x->card_rate_nanos, c),
		    diff > 0 ? "low" : "high", m9((int64_t)(diff < 0 ? -diff : diff), d),
		    percent(diff, x->card_rate_nanos, e));
	} else if (x->verdict == SB_VERDICT_RATE) {
		__int128 diff = (__int128)x->implied_rate_nanos - x->card_rate_nanos;
		say(w, "the provider bills %s per minute of session life and the card says %s: the card is "
		       "too %s by %s per minute (%s of the card's rate)",
		    m9(x->implied_rate_nanos, a), m9(x->card_rate_nanos, c), diff > 0 ? "low" : "high",
		    m9((int64_t)(diff < 0 ? -diff : diff), d), percent(diff, x->card_rate_nanos, e));
	} else {
		say(w, "neither the session lifetime at the card rate (%s) nor a different rate explains "
		       "billed %s against computed %s",
		    x->has_lifetime_cost ? m6(x->lifetime_nanos, a) : "unknown", m6(b->billed_nanos, c),
		    m6(b->computed_nanos, d));
		if (x->has_implied && x->has_card_rate && x->card_rate_nanos > 0 &&
		    (x->implied_rate_nanos > x->card_rate_nanos) != over)
			say(w, " (the provider's %s per minute of session life is %s the card's %s, so a %s card "
			       "would only widen the drift)",
			    m9(x->implied_rate_nanos, a), x->implied_rate_nanos > x->card_rate_nanos ? "above" : "below",
			    m9(x->card_rate_nanos, c), x->implied_rate_nanos > x->card_rate_nanos ? "higher" : "lower");
		say(w, ": look at its sessions and lines (");
		say_lines_command(w, b);
		say(w, ")");
	}
}

bool sb_recon_words(const sb_recon *r, const sb_recon_backend *b, const sb_invocation *inv,
                    char *buf, size_t cap)
{
	char run[SB_INVOCATION_BUFSZ];
	words w = {buf, cap, 0, sb_invocation_words(inv, run, sizeof run)};
	char a[SB_MONEY_BUFSZ], t[SB_TIME_BUFSZ], u[SB_TIME_BUFSZ], l[SB_TIME_BUFSZ];
	char cur[SB_QUOTE_BUFSZ];
	sb_recon_status s = b->status;

	if (cap == 0)
		return false;
	buf[0] = '\0';
	if (s == SB_STATUS_PENDING) {
		say(&w, "its window ends at %s, after the time of this reconcile (%s): not judged yet; "
		        "reconcile it again once the window has ended (nightly does)",
		    sb_time_format(b->window.to_ms, t), sb_time_format(r->opts.now_ms, u));
	} else if (s == SB_STATUS_CURRENCY) {
		say(&w, "%lld line%s in %s%s had no exchange rate in force and %s left out: set the USD value "
		        "of one %s (%s fx set %s USD_PER_%s --from %s) and reconcile again",
		    (long long)b->currency_lines, b->currency_lines == 1 ? "" : "s", b->currency,
		    b->currency_lines == 1 ? "" : " (or other currencies)", b->currency_lines == 1 ? "was" : "were",
		    b->currency, w.run, sb_quote(b->currency, SB_QUOTE_IF_NEEDED, cur, sizeof cur), b->currency,
		    from_arg(b->window.from_ms, t));
	} else if (s == SB_STATUS_NO_RATE) {
		if (b->rate_fix.lines > 0)
			say_no_rate(&w, b);
		if (b->rate_fix.lines > 0 && b->unpriced_runs > 0)
			say(&w, "; ");
		if (b->unpriced_runs > 0)
			say_unpriced_runs(&w, b);
	} else if (s == SB_STATUS_PARTIAL) {
		say(&w, "an account-level line starts in the window and ends at %s, after its end %s (a line "
		        "longer than the period, such as a month in a daily reconcile): it is counted whole; "
		        "reconcile a period that holds it whole",
		    sb_time_format(b->partial_end_ms, t), sb_time_format(b->window.to_ms, u));
	} else if (s == SB_STATUS_UNEXPECTED) {
		if (b->free)
			say(&w, "billed %s on a free backend (its card says free): ", m6(b->billed_nanos, a));
		else
			say(&w, "billed %s with no runs in the window: ", m6(b->billed_nanos, a));
		say(&w, "a charge the runs do not account for (");
		say_lines_command(&w, b);
		say(&w, ")");
	} else if (s == SB_STATUS_UNBILLED && b->flagged) {
		say(&w, "computed %s and nothing billed, though the window ended at %s, more than %s ago: "
		        "the bill is missing",
		    m6(b->computed_nanos, a), sb_time_format(b->window.to_ms, t),
		    span_text(r->opts.billing_lag_ms, l));
	} else if (s == SB_STATUS_UNBILLED) {
		__int128 due = (__int128)b->window.to_ms + r->opts.billing_lag_ms;
		say(&w, "computed %s and nothing billed yet: a bill may still come (flagged if none has come "
		        "%s after the window's end, after %s)",
		    m6(b->computed_nanos, a), span_text(r->opts.billing_lag_ms, l),
		    due <= INT64_MAX ? sb_time_format((int64_t)due, t) : "never");
	} else if (s == SB_STATUS_OVER_BILLED || s == SB_STATUS_UNDER_BILLED) {
		say_verdict(&w, b);
	}
	return w.len > 0;
}
