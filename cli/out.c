/* out.c: the listings of the command line (see out.h). */
#include "cli/out.h"

int cli_list_stmt(sb_cli *cli, sb_db *db, sb_format fmt, const sb_col *cols, size_t n, sb_stmt *st)
{
	sb_out *o;

	if (st == NULL)
		return cli_report(&cli->err);
	if ((o = sb_out_new(stdout, fmt, cli->csv_raw, cols, n)) == NULL) {
		sb_stmt_reset(st);
		sb_fail(&cli->err, SB_EINTERNAL, "out of memory");
		return cli_report(&cli->err);
	}
	sb_out_rows(o, db, st, &cli->err);
	sb_out_end(o, &cli->err);
	return cli_report(&cli->err);
}

int cli_list(sb_cli *cli, sb_db *db, sb_format fmt, const sb_col *cols, size_t n, const char *query,
             sb_list_bind bind, const void *ctx)
{
	sb_stmt *st = sb_db_stmt(db, query, &cli->err);

	if (st != NULL && bind != NULL)
		bind(db, st, ctx);
	return cli_list_stmt(cli, db, fmt, cols, n, st);
}
