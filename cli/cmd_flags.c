/* cmd_flags.c: flags, and their handling: flags, flags ack, flags waive,
 * flags dispute, flags resolve, flags reopen (docs/reconcile.md, "Flags";
 * the library's rules are reconcile/flags.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/out.h"
#include "ledger/quote.h"
#include "reconcile/flags.h"

/* Options of the flags commands. */
typedef struct flags_opts {
	sb_format fmt;              /* --format */
	sb_flags_which which;       /* --open, --all, --disputed (default: open and handled) */
	bool has_period;            /* --period given */
	sb_period period;           /* --period */
	int64_t id;                 /* the flag handled */
	const char *reason;         /* --reason */
	const char *who;            /* --who (default $LOGNAME) */
	const char *action;         /* ack, waive, dispute, resolve, reopen */
} flags_opts;

static int on_flags_opt(sb_cli *cli, void *ctx, int val, const char *arg)
{
	flags_opts *o = ctx;

	switch (val) {
	case 'f': return cli_format(cli, arg, 1u << FMT_TABLE | 1u << FMT_CSV | 1u << FMT_JSON, &o->fmt);
	case 'o': o->which = SB_FLAGS_OPEN; return 0;
	case 'a': o->which = SB_FLAGS_ALL; return 0;
	case 'd': o->which = SB_FLAGS_DISPUTED; return 0;
	case 'p':
		o->has_period = true;
		return cli_period(cli, arg, &o->period);
	case 'r': o->reason = arg; return 0;
	case 'w': o->who = arg; return 0;
	default: return SB_EUSAGE;
	}
}

static const struct option list_options[] = {
	{"open", no_argument, NULL, 'o'},
	{"all", no_argument, NULL, 'a'},
	{"disputed", no_argument, NULL, 'd'},
	{"period", required_argument, NULL, 'p'},
	{"format", required_argument, NULL, 'f'},
	{NULL, 0, NULL, 0},
};

static const struct option handle_options[] = {
	{"reason", required_argument, NULL, 'r'},
	{"who", required_argument, NULL, 'w'},
	{NULL, 0, NULL, 0},
};

static const struct option reopen_options[] = {
	{"reason", required_argument, NULL, 'r'},
	{"who", required_argument, NULL, 'w'},
	{NULL, 0, NULL, 0},
};

/* flags: the listing's options. */
static int parse_list(sb_cli *cli, int argc, char **argv, void *opts)
{
	flags_opts *o = opts;
	int first = 0, rc;

	o->fmt = FMT_TABLE;
	o->which = SB_FLAGS_UNRESOLVED;
	if ((rc = cli_getopt(cli, argc, argv, list_options, on_flags_opt, o, &first)) != 0)
		return rc;
	if (first < argc)
		return cli_usage(cli, "unexpected argument '%s'", argv[first]);
	return 0;
}

/* flags: the flags with the money at stake. */
static int run_list(sb_cli *cli, sb_db *db, void *opts)
{
	static const sb_col cols[] = {
		{"id", COL_INT, 0}, {"period_from", COL_TIME, 0}, {"period_to", COL_TIME, 0},
		{"backend", COL_TEXT, 0}, {"session", COL_TEXT, 0}, {"state", COL_TEXT, 0},
		{"handling", COL_TEXT, 0}, {"status", COL_TEXT, 0}, {"computed_usd", COL_MONEY, 0},
		{"billed_usd", COL_MONEY, 0}, {"drift_usd", COL_MONEY, 0}, {"at_stake_usd", COL_MONEY, 0},
		{"reopened", COL_BOOL, 0}, {"resolved_by_batch", COL_INT, 0}, {"who", COL_TEXT, 0},
		{"reason", COL_TEXT, 0},
	};
	const flags_opts *o = opts;

	return cli_list_stmt(cli, db, o->fmt, cols, sizeof cols / sizeof cols[0],
	                     sb_flags_stmt(db, o->which, o->has_period ? &o->period : NULL, &cli->err));
}

/* flags ACTION ID: the flag, --reason, --who. */
static int parse_handle(sb_cli *cli, int argc, char **argv, void *opts)
{
	flags_opts *o = opts;
	const char *name = cli->cmd->name;
	int first = 0, rc;
	char *end = NULL;

	o->action = strchr(name, ' ') != NULL ? strchr(name, ' ') + 1 : name;
	if ((rc = cli_getopt(cli, argc, argv, strcmp(o->action, "reopen") == 0 ? reopen_options : handle_options,
	                     on_flags_opt, o, &first)) != 0)
		return rc;
	if (first >= argc)
		return cli_usage(cli, "flags %s: give the flag's ID ('sbledger flags' lists them)", o->action);
	if (first + 1 < argc)
		return cli_usage(cli, "unexpected argument '%s'", argv[first + 1]);
	o->id = strtoll(argv[first], &end, 10);
	if (end == argv[first] || *end != '\0' || o->id <= 0)
		return cli_usage(cli, "flags %s: '%s' is not a flag's ID (a number)", o->action, argv[first]);
	if (strcmp(o->action, "reopen") != 0 && (o->reason == NULL || o->reason[0] == '\0'))
		return cli_usage(cli, "flags %s: --reason TEXT is required (what was decided, for the audit)", o->action);
	if (o->who == NULL)
		o->who = getenv("LOGNAME");
	return 0;
}

/* flags ACTION ID: handle one flag. */
static int run_handle(sb_cli *cli, sb_db *db, void *opts)
{
	const flags_opts *o = opts;
	sb_flag f;
	char name[96];

	memset(&f, 0, sizeof f);
	if (sb_flags_handle(db, o->id, o->action, o->reason, o->who, &f, &cli->err) == SB_OK) {
		cli_info(cli, "flag %lld: %s %s%s%s: %s%s%s", (long long)f.id, sb_period_name(&f.period, name),
		         f.backend, f.is_session ? " session " : "",
		         f.is_session ? (f.session_id != NULL ? f.session_id : "(none)") : "", f.state,
		         f.handling[0] != '\0' ? ", " : "", f.handling);
		sb_flag_clear(&f);
	}
	return cli_report(&cli->err);
}

#define HANDLE_HELP(what) \
	what "\n" \
	"\n" \
	"  --reason TEXT   what was decided, kept with the flag (required)\n" \
	"  --who NAME      who decided (default $LOGNAME)\n"

const sb_command sb_flags_commands[] = {
	{"flags", parse_list, run_list, sizeof(flags_opts), CMD_READS | CMD_CSV,
	 "[--open|--all|--disputed] [--period P] [--format table|csv|json] [--raw]",
	 "List the flags: each flagged backend or session of a stored result at its\n"
	 "backend's grain (a UTC day, or a calendar month for a backend billed by\n"
	 "the month), one per period, backend and session across re-judgments,\n"
	 "with its state (open: new or reopened; handled: acked, waived or\n"
	 "disputed; resolved), its figures and the money at stake (|drift|, or\n"
	 "computed when nothing was billed).  By default the open and handled ones.\n"
	 "\n"
	 "  --open         only the open flags (what the nightly mail lists)\n"
	 "  --all          resolved flags too\n"
	 "  --disputed     only the disputes (the money in dispute, for the close)\n"
	 "  --period P     flags of the periods that meet P\n"
	 "  --format F     table (default), csv or json\n"
	 "  --raw          CSV: no ' before free text starting with = + - @ tab CR\n",
	 "list the flags of stored results, with the money at stake", list_options,
	 "sbledger flags\n"
	 "sbledger flags --open --period 2026-11\n"
	 "sbledger flags --all --format json\n"},
	{"flags ack", parse_handle, run_handle, sizeof(flags_opts), CMD_WRITES,
	 "ID --reason TEXT [--who NAME]",
	 HANDLE_HELP("Acknowledge flag ID: seen, being watched.  A handled flag is not mailed\n"
	             "and does not count for --fail-on-drift while a re-judgment gives the\n"
	             "same figures; when they change it reopens."),
	 "acknowledge a flag (seen, watch it)", handle_options,
	 "sbledger flags ack 7 --reason 'boot time, expected'\n"},
	{"flags dispute", parse_handle, run_handle, sizeof(flags_opts), CMD_WRITES,
	 "ID --reason TEXT [--who NAME]",
	 HANDLE_HELP("Dispute flag ID with the provider: its drift is the amount in dispute,\n"
	             "listed by 'flags --disputed' until 'flags resolve' closes it or a\n"
	             "re-judgment (a credit note) no longer flags it."),
	 "mark a flag disputed with the provider", handle_options,
	 "sbledger flags dispute 7 --reason 'ticket 4411: idle billed after kill' --who ana\n"},
	{"flags reopen", parse_handle, run_handle, sizeof(flags_opts), CMD_WRITES,
	 "ID [--reason TEXT] [--who NAME]",
	 "Undo the handling of flag ID (or a dispute resolved by hand): it is open\n"
	 "again, mailed every night until handled.\n"
	 "\n"
	 "  --reason TEXT   why, kept with the flag\n"
	 "  --who NAME      who (default $LOGNAME)\n",
	 "open a handled flag again", reopen_options,
	 "sbledger flags reopen 7\n"},
	{"flags resolve", parse_handle, run_handle, sizeof(flags_opts), CMD_WRITES,
	 "ID --reason TEXT [--who NAME]",
	 HANDLE_HELP("Close the dispute of flag ID: credited, or withdrawn."),
	 "close a dispute (credited, or withdrawn)", handle_options,
	 "sbledger flags resolve 7 --reason 'credited on invoice 2026-12'\n"},
	{"flags waive", parse_handle, run_handle, sizeof(flags_opts), CMD_WRITES,
	 "ID --reason TEXT [--who NAME]",
	 HANDLE_HELP("Waive flag ID: accepted as billed."),
	 "accept a flag as billed", handle_options,
	 "sbledger flags waive 7 --reason 'within the contract'\n"},
	{NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL},
};
