/* cmd_invoice.c: invoice, export focus. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "ledger/money.h"
#include "ledger/period.h"
#include "reconcile/invoice.h"
#include "report/export_focus.h"
#include "report/invoice_out.h"

/* Options of invoice and export focus. */
typedef struct invoice_cli {
	sb_format fmt;            /* --format */
	bool has_period;          /* --period given */
	sb_invoice_opts o;        /* what to invoice */
	bool finalize;            /* --finalize */
} invoice_cli;

/* Handle one option. */
static int on_invoice_opt(sb_cli *cli, void *ctx, int val, const char *arg)
{
	invoice_cli *ic = ctx;

	switch (val) {
	case 'f':
		return cli_format(cli, arg, 1u << FMT_TABLE | 1u << FMT_CSV | 1u << FMT_JSON | 1u << FMT_HTML, &ic->fmt);
	case 'p':
		ic->has_period = true;
		return cli_period(cli, arg, &ic->o.period);
	case 'b':
		if (strncmp(arg, "tag:", 4) != 0 || arg[4] == '\0')
			return cli_usage(cli, "--by '%s' is not tag:NAME (invoices go to the values of a tag, e.g. tag:customer)", arg);
		if (strlen(arg + 4) > 128)
			return cli_usage(cli, "--by: the tag name is longer than 128 bytes");
		ic->o.tag = arg + 4;
		return 0;
	case 'c':
		if (arg[0] == '\0')
			return cli_usage(cli, "--customer needs a value");
		ic->o.customer = arg;
		return 0;
	case 'B': {
		sb_err e;
		sb_err_clear(&e);
		if (sb_basis_parse(arg, &ic->o.basis, &e) != SB_OK)
			return cli_usage(cli, "--basis '%s' is not one of computed, billed", arg);
		return 0;
	}
	case 'F':
		ic->finalize = true;
		return 0;
	default:
		return SB_EUSAGE;
	}
}

static const struct option invoice_options[] = {
	{"format", required_argument, NULL, 'f'},
	{"period", required_argument, NULL, 'p'},
	{"by", required_argument, NULL, 'b'},
	{"customer", required_argument, NULL, 'c'},
	{"basis", required_argument, NULL, 'B'},
	{"finalize", no_argument, NULL, 'F'},
	{NULL, 0, NULL, 0},
};

static const struct option export_options[] = {
	{"period", required_argument, NULL, 'p'},
	{"format", required_argument, NULL, 'f'},
	{NULL, 0, NULL, 0},
};

/* Money with 2 decimals into buf. */
static const char *cents(int64_t nanos, char buf[SB_MONEY_BUFSZ])
{
	return sb_money_format(nanos, 2, buf);
}

/* Notes and adjustments on stderr, for the formats that have no room
 * for them (csv, json). */
static void warn_notes(const sb_invoice_set *set)
{
	char buf[SB_MONEY_BUFSZ], runs[200];

	for (size_t i = 0; i < set->n_invoices; i++) {
		const sb_invoice *inv = &set->invoices[i];
		if (inv->n_unknown_runs > 0)
			cli_warn("%s: the token cost of %zu run%s is unknown (tokens, no model), so is the total",
			         inv->customer, inv->n_unknown_runs, inv->n_unknown_runs == 1 ? "" : "s");
		for (size_t k = 0; k < inv->n_no_card; k++) {
			char why[1400];
			cli_warn("%s: %s", inv->customer, sb_invoice_no_card_text(&inv->no_card[k], why, sizeof why));
		}
		for (size_t k = 0; k < inv->n_notes; k++)
			cli_warn("note: %s: %s", inv->customer, inv->notes[k]);
		if (inv->adjust != NULL)
			cli_warn("%s: since it was finalized: %s; adjustment %s %s (the invoice is unchanged)",
			         inv->number, sb_adjust_summary(inv->adjust, runs, sizeof runs),
			         cents(inv->adjust->total_nanos, buf), inv->currency);
	}
	for (size_t k = 0; k < set->n_notes; k++)
		cli_warn("note: %s", set->notes[k]);
}

/* What the invoice set says to whoever runs sbledger (never on the
 * invoice itself), on stderr in every format. */
static void warn_notices(const sb_invoice_set *set)
{
	for (size_t k = 0; k < set->n_notices; k++)
		cli_warn("%s", set->notices[k]);
}

/* invoice: its options; --period and --by are required.  --finalize
 * writes the ledger (its write lock is taken), else it is only read. */
static int parse_invoice(sb_cli *cli, int argc, char **argv, void *opts)
{
	invoice_cli *ic = opts;
	int first = 0, rc;

	ic->fmt = FMT_TABLE;
	ic->o.basis = SB_BASIS_COMPUTED;
	ic->o.invoked = &cli->invoked;
	if ((rc = cli_getopt(cli, argc, argv, invoice_options, on_invoice_opt, ic, &first)) != 0)
		return rc;
	if (first < argc)
		return cli_usage(cli, "unexpected argument '%s'", argv[first]);
	if (!ic->has_period)
		return cli_usage(cli, "--period is required (2026-11, last-month, FROM..TO, ...)");
	if (ic->o.tag == NULL)
		return cli_usage(cli, "--by tag:NAME is required (e.g. --by tag:customer)");
	if (ic->finalize)
		cli->ledger = CMD_WRITES;
	return 0;
}

/* invoice: one invoice per tag value. */
static int run_invoice(sb_cli *cli, sb_db *db, void *opts)
{
	const invoice_cli *ic = opts;
	sb_invoice_set *set = NULL;
	int rc;

	if (ic->finalize)
		rc = sb_invoice_finalize(db, &ic->o, &set, &cli->err);
	else
		rc = sb_invoice_build(db, &ic->o, &set, &cli->err);
	if (rc != SB_OK)
		return cli_report(&cli->err);
	for (size_t i = 0; i < set->n_invoices; i++)
		if (set->invoices[i].number != NULL && set->invoices[i].basis != ic->o.basis)
			cli_warn("%s was finalized on a %s basis and is shown as stored", set->invoices[i].number,
			         sb_basis_name(set->invoices[i].basis));
	if (set->n_invoices == 0) {
		char name[96];
		if (set->claimed_runs > 0)
			cli_warn("every run of %s is on a finalized invoice already: no invoices",
			         sb_period_name(&ic->o.period, name));
		else
			cli_warn("no runs in %s: no invoices", sb_period_name(&ic->o.period, name));
	}
	sb_report_invoices(stdout, ic->fmt, cli->csv_raw, set, &cli->err);
	/* csv and json have no room for the notes: they go to stderr */
	if (ic->fmt == FMT_CSV || ic->fmt == FMT_JSON)
		warn_notes(set);
	warn_notices(set);
	if (ic->finalize && cli->err.code == SB_OK)
		for (size_t i = 0; i < set->n_invoices; i++)
			cli_warn("finalized %s ('%s')", set->invoices[i].number, set->invoices[i].customer);
	sb_invoice_set_free(set);
	return cli_report(&cli->err);
}

/* export focus: its options; --period is required, CSV the only format. */
static int parse_export_focus(sb_cli *cli, int argc, char **argv, void *opts)
{
	invoice_cli *ic = opts;
	int first = 0, rc;

	ic->fmt = FMT_CSV;
	if ((rc = cli_getopt(cli, argc, argv, export_options, on_invoice_opt, ic, &first)) != 0)
		return rc;
	if (first < argc)
		return cli_usage(cli, "unexpected argument '%s'", argv[first]);
	if (!ic->has_period)
		return cli_usage(cli, "--period is required (2026-11, last-month, FROM..TO, ...)");
	if (ic->fmt != FMT_CSV)
		return cli_usage(cli, "export focus writes CSV only");
	return 0;
}

/* export focus: the runs of a period as FOCUS 1.2 CSV. */
static int run_export_focus(sb_cli *cli, sb_db *db, void *opts)
{
	const invoice_cli *ic = opts;

	sb_export_focus(db, &ic->o.period, cli->csv_raw, stdout, &cli->err);
	return cli_report(&cli->err);
}

const sb_command sb_invoice_commands[] = {
	{"invoice", parse_invoice, run_invoice, sizeof(invoice_cli), CMD_READS | CMD_CSV,
	 "--period P --by tag:NAME [--customer VALUE] [--basis computed|billed] [--finalize] "
	 "[--format table|csv|json|html] [--raw]",
	 "One invoice per value of tag NAME (runs without it: '(untagged)'): a line\n"
	 "per backend (exec minutes, 3 decimals; the amount) and per model (input\n"
	 "and output tokens; the amount from the model price table).  Each line is\n"
	 "rounded half to even to the cent; the total is the sum of the lines.\n"
	 "Amounts have 2 decimals, rates 9.  A run is on one finalized invoice at\n"
	 "most, under any tag: the runs another finalized invoice charged are left\n"
	 "out (stderr says where).  Tokens of runs that name no model have no\n"
	 "price: a draft shows them, and its total, as unknown, and a finalize is\n"
	 "refused; so, on the computed basis, with the runs of a backend that had\n"
	 "no rate card in force (rates set B --usd-per-minute X, or --free for a\n"
	 "self-hosted backend, from their day).  What sbledger tells whoever runs it (notices, commands to run)\n"
	 "goes to stderr, never onto the invoice.  Exit 65 for a tag no run of the\n"
	 "period has (naming the tags there are), a customer no run has, a model\n"
	 "with no price, or a refused finalize.  See docs/reports.md.\n"
	 "\n"
	 "  --period P        the runs started in P (required)\n"
	 "  --by tag:NAME     one invoice per value of tag NAME (required)\n"
	 "  --customer VALUE  only this customer's invoice (the others are still\n"
	 "                    computed, so that allocations are the same)\n"
	 "  --basis computed  charge the runs' computed_cost_usd (default)\n"
	 "  --basis billed    charge what providers billed: per session where their\n"
	 "                    lines name sessions, else the backend's billed total\n"
	 "                    allocated by computed cost (largest remainder, to the cent)\n"
	 "  --finalize        store the invoices under numbers (INV-2026-11-acme-001);\n"
	 "                    a finalized invoice is reprinted as stored, never\n"
	 "                    recomputed; finalizing it again is refused; runs that\n"
	 "                    arrive later are shown as its adjustments\n"
	 "  --format F        table (default), csv, json, or html (a printable page)\n"
	 "  --raw             CSV: no ' before free text starting with = + - @ tab CR\n",
	 "invoices per customer (a tag) from computed or billed cost", invoice_options,
	 "sbledger invoice --period 2026-11 --by tag:customer\n"
	 "sbledger invoice --period 2026-11 --by tag:customer --customer acme --format html > acme.html\n"
	 "sbledger invoice --period last-month --by tag:customer --basis billed --finalize\n"},
	{"export focus", parse_export_focus, run_export_focus, sizeof(invoice_cli), CMD_READS | CMD_CSV,
	 "--period P [--format csv] [--raw]",
	 "The runs started in period P as FOCUS 1.2 CSV on stdout, one row per\n"
	 "session and UTC day: ListCost and EffectiveCost the computed cost,\n"
	 "BilledCost the runs' own billed cost where known else the computed, with\n"
	 "x_BilledBasis saying which (billed, computed, mixed); ConsumedQuantity in\n"
	 "exec minutes; Tags the runs' tags.  'import billing --format focus' reads\n"
	 "it back.  See docs/reports.md.\n"
	 "\n"
	 "  --period P     the runs started in P (required)\n"
	 "  --format csv   the only format there is (FOCUS is CSV)\n"
	 "  --raw          no ' before free text starting with = + - @ tab CR\n",
	 "the runs of a period as FOCUS 1.2 CSV", export_options,
	 "sbledger export focus --period 2026-11 > focus-2026-11.csv\n"},
	{NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL},
};
