/* export_focus.h: the ledger's runs as FinOps FOCUS 1.2 CSV (docs/reports.md,
 * sbledger export focus), for a data warehouse.
 *
 * One row per session and UTC day (runs naming no session make one row
 * per backend and day, with an empty ResourceId):
 *   ListCost, EffectiveCost, ContractedCost  the runs' computed cost
 *   BilledCost      per run its own billed_cost_usd where known, else its
 *                   computed cost, summed
 *   x_BilledBasis   billed (every run had a billed figure), computed
 *                   (none had), mixed (some had)
 *   ChargePeriodStart/End  the UTC day, clipped to the period exported
 *   ServiceProviderName    the backend id;  ResourceId  the session
 *   ConsumedQuantity       exec minutes (6 decimals), ConsumedUnit Minutes
 *   Tags            the runs' tags as a JSON object (a tag whose runs
 *                   disagree on its value is left out), empty when none
 * Amounts have 9 decimals.  'import billing --format focus' of the file
 * next to the same runs reconciles with zero drift.  Cells are written by
 * the one CSV writer (report/csvout.h): the session, backend, description
 * and tags as free text, guarded against spreadsheet formulas unless raw.
 */
#ifndef SB_EXPORT_FOCUS_H
#define SB_EXPORT_FOCUS_H

#include <stdbool.h>
#include <stdio.h>

#include "ledger/db.h"
#include "ledger/period.h"

/* Write the runs started in period as FOCUS CSV (header and CRLF-free
 * rows, fields quoted where they need it) to out; raw writes free text
 * unguarded (--raw).  SB_EIO when out fails; nothing is allocated past
 * the call. */
int sb_export_focus(sb_db *db, const sb_period *period, bool raw, FILE *out, sb_err *e);

#endif
