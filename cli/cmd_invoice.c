/* cmd_invoice.c: invoice, export focus. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/out.h"
#include "ledger/csvout.h"
#include "ledger/money.h"
#include "ledger/period.h"
#include "ledger/timefmt.h"
#include "reconcile/export_focus.h"
#include "reconcile/html.h"
#include "reconcile/invoice.h"

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

/* Minutes x 1000 with 3 decimals into buf. */
static const char *minutes3(int64_t milli, char buf[SB_MONEY_BUFSZ])
{
	return sb_money_format(milli * 1000000, 3, buf);
}

/* The quantity of a line as the table shows it: exec minutes, or the
 * tokens with thousands separators. */
static void line_quantity(const sb_invoice_line *l, char *buf, size_t size)
{
	char m[SB_MONEY_BUFSZ], in[32], out[32];

	if (l->kind == SB_INV_COMPUTE)
		snprintf(buf, size, "%s", minutes3(l->quantity_milli, m));
	else
		snprintf(buf, size, "%s in / %s out", sb_thousands(l->input_tokens, in),
		         sb_thousands(l->output_tokens, out));
}

/* The rate of a line as the table shows it, with 9 decimals: USD per exec
 * minute, or USD per million input and output tokens. */
static void line_rate(const sb_invoice_line *l, char *buf, size_t size)
{
	char a[SB_MONEY_BUFSZ], b[SB_MONEY_BUFSZ];

	if (l->kind == SB_INV_COMPUTE)
		snprintf(buf, size, "%s", l->has_rate ? strcat(sb_money_format(l->rate_nanos, 9, a), "/min") : "");
	else if (l->input_per_m_nanos != 0 || l->output_per_m_nanos != 0)
		snprintf(buf, size, "%s + %s /M", sb_money_format(l->input_per_m_nanos, 9, a),
		         sb_money_format(l->output_per_m_nanos, 9, b));
	else
		buf[0] = '\0';
}

/* The amount of a line as shown: 2 decimals, or "unknown". */
static const char *line_amount(const sb_invoice_line *l, char buf[SB_MONEY_BUFSZ])
{
	return l->unknown ? "unknown" : cents(l->amount_nanos, buf);
}

/* Lines as an indented table on stdout (cli/out.c), ending with a total
 * row (total NULL: "unknown"); amounts with 2 decimals. */
static void table_lines(const sb_invoice_line *lines, size_t n, const char *total_label, const int64_t *total)
{
	static const sb_col cols[] = {
		{"description", COL_TEXT, 0}, {"quantity", COL_NUMBER, 0}, {"unit", COL_TEXT, 0},
		{"rate", COL_NUMBER, 0}, {"amount", COL_NUMBER, 0},
	};
	char q[80], r[80], a[SB_MONEY_BUFSZ];
	sb_out *o = sb_out_new(FMT_TABLE, cols, sizeof cols / sizeof cols[0]);

	if (o == NULL)
		return;
	sb_out_indent(o, 2);
	for (size_t k = 0; k < n; k++) {
		line_quantity(&lines[k], q, sizeof q);
		line_rate(&lines[k], r, sizeof r);
		sb_out_text(o, lines[k].description);
		sb_out_text(o, q);
		sb_out_text(o, lines[k].kind == SB_INV_COMPUTE ? "minutes" : "tokens");
		sb_out_text(o, r);
		sb_out_text(o, line_amount(&lines[k], a));
		sb_out_row(o);
	}
	sb_out_text(o, total_label);
	sb_out_text(o, "");
	sb_out_text(o, "");
	sb_out_text(o, "");
	sb_out_text(o, total != NULL ? cents(*total, a) : "unknown");
	sb_out_row(o);
	sb_out_end(o);
}

/* The invoices as text on stdout. */
static void print_table(const sb_invoice_set *set)
{
	char name[96], from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ], made[SB_TIME_BUFSZ], known[SB_MONEY_BUFSZ];
	char label[64];

	sb_period_name(&set->period, name);
	for (size_t i = 0; i < set->n_invoices; i++) {
		const sb_invoice *inv = &set->invoices[i];
		if (i > 0)
			putchar('\n');
		printf("Invoice %s\n", inv->number != NULL ? inv->number : "(draft, not finalized)");
		printf("  customer  %s (tag %s)\n", inv->customer, set->tag);
		printf("  period    %s (%s to %s)\n", name, sb_time_format(set->period.from_ms, from),
		       sb_time_format(set->period.to_ms, to));
		printf("  basis     %s\n", sb_basis_name(inv->basis));
		if (inv->number != NULL)
			printf("  finalized %s\n", sb_time_format(inv->created_ms, made));
		putchar('\n');
		snprintf(label, sizeof label, "total %s", inv->currency);
		table_lines(inv->lines, inv->n_lines, label, inv->total_unknown ? NULL : &inv->total_nanos);
		if (inv->total_unknown)
			printf("  the token cost of %zu run%s is unknown (tokens, no model), so is the total; the other lines add up to %s\n",
			       inv->n_unknown_runs, inv->n_unknown_runs == 1 ? "" : "s", cents(inv->total_nanos, known));
		for (size_t k = 0; k < inv->n_unknown_runs; k++)
			printf("  run with tokens and no model: %s\n", inv->unknown_runs[k]);
		for (size_t k = 0; k < inv->n_notes; k++)
			printf("  note: %s\n", inv->notes[k]);
		if (inv->adjust != NULL) {
			char runs[200], text[1200];
			printf("\n  adjustments since it was finalized (%s; the invoice is unchanged):\n",
			       sb_adjust_summary(inv->adjust, runs, sizeof runs));
			table_lines(inv->adjust->lines, inv->adjust->n_lines, "adjustment total", &inv->adjust->total_nanos);
			for (size_t k = 0; k < inv->adjust->n_runs; k++)
				printf("  %s\n", sb_adjust_run_text(&inv->adjust->runs[k], text, sizeof text));
		}
	}
	for (size_t k = 0; k < set->n_notes; k++)
		printf("%snote: %s\n", k == 0 && set->n_invoices > 0 ? "\n" : "", set->notes[k]);
}

/* One CSV row of an invoice: the invoice's columns, then the line's. */
static void csv_row(sb_csv_out *w, const sb_invoice_set *set, const sb_invoice *inv, const char *kind,
                    const sb_invoice_line *l, const int64_t *amount)
{
	char from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ], buf[SB_MONEY_BUFSZ], n[32];

	sb_csv_value(w, inv->number);
	sb_csv_text(w, inv->customer);
	sb_csv_value(w, sb_time_format(set->period.from_ms, from));
	sb_csv_value(w, sb_time_format(set->period.to_ms, to));
	sb_csv_value(w, sb_basis_name(inv->basis));
	sb_csv_value(w, inv->currency);
	sb_csv_value(w, kind);
	sb_csv_text(w, l != NULL ? l->description : NULL);
	sb_csv_text(w, l != NULL ? l->backend : NULL);
	sb_csv_text(w, l != NULL ? l->model : NULL);
	if (l != NULL && l->kind == SB_INV_COMPUTE) {
		sb_csv_value(w, minutes3(l->quantity_milli, buf));
		sb_csv_value(w, "minutes");
		sb_csv_value(w, l->has_rate ? sb_money_format(l->rate_nanos, 9, buf) : NULL);
		sb_csv_value(w, NULL);
		sb_csv_value(w, NULL);
	} else if (l != NULL) {
		sb_csv_value(w, NULL);
		sb_csv_value(w, "tokens");
		sb_csv_value(w, NULL);
		snprintf(n, sizeof n, "%lld", (long long)l->input_tokens);
		sb_csv_value(w, n);
		snprintf(n, sizeof n, "%lld", (long long)l->output_tokens);
		sb_csv_value(w, n);
	} else {
		for (int k = 0; k < 5; k++)
			sb_csv_value(w, NULL);
	}
	sb_csv_value(w, amount != NULL ? cents(*amount, buf) : NULL);   /* empty: unknown */
	sb_csv_end(w);
}

/* The invoices as CSV: one row per line, a total row per invoice, and
 * adjustment rows after it; free text guarded unless raw. */
static void print_csv(const sb_invoice_set *set, bool raw)
{
	sb_csv_out w;

	sb_csv_out_init(&w, stdout, raw);
	puts("number,customer,period_from,period_to,basis,currency,kind,description,backend,model,"
	     "quantity,unit,rate,input_tokens,output_tokens,amount");
	for (size_t i = 0; i < set->n_invoices; i++) {
		const sb_invoice *inv = &set->invoices[i];
		for (size_t k = 0; k < inv->n_lines; k++)
			csv_row(&w, set, inv, sb_inv_kind_name(inv->lines[k].kind), &inv->lines[k],
			        inv->lines[k].unknown ? NULL : &inv->lines[k].amount_nanos);
		csv_row(&w, set, inv, "total", NULL, inv->total_unknown ? NULL : &inv->total_nanos);
		if (inv->adjust != NULL) {
			for (size_t k = 0; k < inv->adjust->n_lines; k++)
				csv_row(&w, set, inv, "adjustment", &inv->adjust->lines[k], &inv->adjust->lines[k].amount_nanos);
			csv_row(&w, set, inv, "adjustment_total", NULL, &inv->adjust->total_nanos);
		}
	}
}

/* Notes and adjustments on stderr, for the formats that have no room
 * for them (csv, json). */
static void warn_notes(const sb_invoice_set *set)
{
	char buf[SB_MONEY_BUFSZ], runs[200];

	for (size_t i = 0; i < set->n_invoices; i++) {
		const sb_invoice *inv = &set->invoices[i];
		if (inv->total_unknown)
			cli_warn("%s: the token cost of %zu run%s is unknown (tokens, no model), so is the total",
			         inv->customer, inv->n_unknown_runs, inv->n_unknown_runs == 1 ? "" : "s");
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
	switch (ic->fmt) {
	case FMT_JSON: {
		json_t *root = sb_invoice_json(set);
		char *text = json_dumps(root, JSON_INDENT(1));
		if (text != NULL)
			puts(text);
		free(text);
		json_decref(root);
		warn_notes(set);
		break;
	}
	case FMT_CSV:
		print_csv(set, cli->csv_raw);
		warn_notes(set);
		break;
	case FMT_HTML:
		sb_html_invoices(stdout, set, &cli->err);
		break;
	default:
		print_table(set);
		break;
	}
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
	 "refused.  What sbledger tells whoever runs it (notices, commands to run)\n"
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
