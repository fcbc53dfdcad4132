/* reports.h: the report files the nightly job writes for each period it
 * judges (docs/providers.md, "The nightly job").
 *
 * OUT/PERIOD/reconcile.json (the stored result, as 'reconcile --format
 * json' prints it), summary.csv ('report summary --by backend --format
 * csv' of the period, free text guarded against spreadsheet formulas) and
 * report.html (the reconciliation page of report/recon_page.h, with what
 * the night imported and its faults).  Each file is
 * written as .NAME.tmp (mode 0600: finance data; never through a link),
 * flushed and synced, then renamed into place, so a reader sees a whole
 * file or the one before.  Directories are made as needed (mode 0700).
 * A path longer than the system takes (PATH_MAX - 1 bytes) is refused
 * naming its start and its end, never cut short: no file is written and
 * no directory made under a shorter path (nightly/paths.h).  Nothing here
 * prints: what could not be written is a problem handed to the caller.
 */
#ifndef SB_NIGHTLY_REPORTS_H
#define SB_NIGHTLY_REPORTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ledger/err.h"
#include "ledger/period.h"
#include "reconcile/reconcile.h"
#include "reconcile/recon_detail.h"
#include "reconcile/summary.h"
#include "report/recon_page.h"

/* Write the three report files of period p (its result r, its summary s,
 * report.html the reconciliation page of r with its detail d and the
 * page's options po; d NULL when it could not be loaded: report.html is
 * then not written) into OUT/PERIOD, out the reports' root; dir
 * gets OUT/PERIOD ("" when that path is refused as too long, and nothing
 * is written).  Each file that cannot be written goes to on_problem
 * (with ctx; any of them NULL) and the others are still written.  True
 * when all three were. */
bool sb_nightly_write_reports(const char *out, const sb_period *p, const sb_recon *r,
                              const sb_summary *s, const sb_recon_detail *d,
                              const sb_page_opts *po, char *dir, size_t cap,
                              void (*on_problem)(void *ctx, const sb_err *problem), void *ctx);

/* Write json_text (NULL: it could not be made, SB_EINTERNAL) and a
 * newline as OUT/heartbeat.json, whole or not at all, as the reports. */
int sb_nightly_heartbeat_write(const char *out, const char *json_text, sb_err *e);

#endif
