/* lines_out.h: the billing lines of 'lines' (ledger/line_list.h)
 * rendered: a table of what a reader compares (batch, format, backend,
 * session, charge period, kind, amount, category, vCPU- and MB-seconds,
 * live or superseded by which batch), or every column in CSV and JSON
 * (docs/formats-billing.md).
 */
#ifndef SB_LINES_OUT_H
#define SB_LINES_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "ledger/line_list.h"
#include "report/out.h"

/* Start the listing of lines on f in fmt (FMT_TABLE, FMT_CSV or
 * FMT_JSON; CSV free text guarded unless csv_raw).  NULL when memory ran
 * out (sb_out_end says so). */
sb_out *sb_lines_out_new(FILE *f, sb_format fmt, bool csv_raw);

/* One line as a row of o, a listing sb_lines_out_new started in fmt. */
void sb_lines_out_row(sb_out *o, sb_format fmt, const sb_line_row *r);

#endif
