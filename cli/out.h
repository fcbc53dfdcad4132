/* out.h: the listings of the command line: the rows of a query printed on
 * stdout in the format the command was asked for, through the listing
 * writer of report/out.h (which lays them out).
 */
#ifndef SB_CLI_OUT_H
#define SB_CLI_OUT_H

#include <stddef.h>

#include "cli/cli.h"
#include "report/out.h"

/* Binds the parameters of a listing's query; ctx is cli_list's. */
typedef void (*sb_list_bind)(sb_db *db, sb_stmt *st, const void *ctx);

/* The whole of a listing command: run sql/queries/QUERY.sql on db with
 * its parameters bound by bind (NULL when it has none) and print every
 * row (sb_out_stmt) on stdout in fmt, CSV free text raw when the command
 * was given --raw.  Returns the exit status. */
int cli_list(sb_cli *cli, sb_db *db, sb_format fmt, const sb_col *cols, size_t n, const char *query,
             sb_list_bind bind, const void *ctx);

/* The same for a statement the ledger prepared and bound (st, a statement
 * of db; NULL when preparing it failed, the error in cli->err). */
int cli_list_stmt(sb_cli *cli, sb_db *db, sb_format fmt, const sb_col *cols, size_t n, sb_stmt *st);

#endif
