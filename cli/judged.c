/* judged.c: what moved in a period judged again (see judged.h). */
#include "cli/judged.h"

#include <stdio.h>

#include "ledger/money.h"
#include "ledger/quote.h"

void cli_print_change(const sb_period *p, const sb_nightly_change *c)
{
	char name[96], a[SB_MONEY_BUFSZ], b[SB_MONEY_BUFSZ], why[256], backend[SB_QUOTE_BUFSZ];
	size_t k = 0;

	why[0] = '\0';
	if (c->had && c->has && !c->old_has_billed && c->new_has_billed)
		k += (size_t)snprintf(why + k, sizeof why - k, "bill of %s", sb_money_format(c->new_billed, 6, b));
	else if (c->had && c->has && c->old_has_billed && !c->new_has_billed)
		k += (size_t)snprintf(why + k, sizeof why - k, "its bill taken out");
	else if (c->had && c->has && c->old_billed != c->new_billed)
		k += (size_t)snprintf(why + k, sizeof why - k, "billed %s -> %s", sb_money_format(c->old_billed, 6, a),
		                      sb_money_format(c->new_billed, 6, b));
	if (c->had && c->has && c->old_computed != c->new_computed && k < sizeof why)
		k += (size_t)snprintf(why + k, sizeof why - k, "%scomputed %s -> %s", k > 0 ? ", " : "",
		                      sb_money_format(c->old_computed, 6, a), sb_money_format(c->new_computed, 6, b));
	if (k == 0 && c->had && c->has && c->old_status == SB_STATUS_PENDING)
		k += (size_t)snprintf(why, sizeof why, "its window has ended");
	else if (k == 0 && c->had && c->has && c->new_flagged && !c->old_flagged)
		k += (size_t)snprintf(why, sizeof why, "flagged: no bill within the billing lag");
	if (c->batch_id > 0 && k < sizeof why)
		snprintf(why + k, sizeof why - k, "%sin batch %lld", k > 0 ? " " : "", (long long)c->batch_id);
	else if (k == 0)
		snprintf(why, sizeof why, "a rate card, price, exchange rate, tolerance or grain changed");
	printf("%s %s: %s -> %s (%s)\n", sb_period_name(p, name), sb_quote(c->backend, SB_QUOTE_IF_NEEDED, backend, sizeof backend),
	       c->had ? sb_recon_status_name(c->old_status) : "-",
	       c->has ? sb_recon_status_name(c->new_status) : "-", why);
}
