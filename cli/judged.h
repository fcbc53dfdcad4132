/* judged.h: what moved in a period judged again, as nightly and
 * reconcile --stale print it (one line per backend whose status, flag or
 * figures moved; nightly/nightly.h gathers what moved).
 */
#ifndef SB_CLI_JUDGED_H
#define SB_CLI_JUDGED_H

#include "ledger/period.h"
#include "nightly/nightly.h"

/* One line on stdout of what moved for a backend of period p since its
 * earlier result: "2026-11-03 blaxel: unbilled -> ok (bill of 0.645082 in
 * batch 12)". */
void cli_print_change(const sb_period *p, const sb_nightly_change *c);

#endif
