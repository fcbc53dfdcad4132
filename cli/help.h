/* help.h: the help a user reads, made from the command table alone:
 * `sbledger --help` (every command with its summary), `sbledger COMMAND
 * --help` and `sbledger help COMMAND` (one command), `sbledger GROUP
 * --help` (the subcommands of import, report, fetch, ...), and the man
 * page sbledger.1 (tools/mkman.c).  Nothing here allocates.
 */
#ifndef SB_CLI_HELP_H
#define SB_CLI_HELP_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/cli.h"

/* A group of commands under a title, as `sbledger --help` lists them. */
typedef struct sb_command_group {
	const char *title;            /* "Reconciliation" */
	const sb_command *commands;   /* its rows, ended by a {NULL} row */
} sb_command_group;

/* Every group, ended by {NULL, NULL}. */
extern const sb_command_group sb_command_groups[];

/* What `sbledger --help` says of the period forms, shared with every
 * command that takes --period and with the man page. */
extern const char cli_help_periods[];

/* The command named by argv[0] (and argv[1] for two-word commands), or
 * NULL; *words gets how many arguments its name took. */
const sb_command *cli_find_command(int argc, char **argv, int *words);

/* Print the usage line(s) of cmd to f, the first starting with prefix
 * ("usage: sbledger "), continuation lines aligned under the arguments. */
void cli_help_usage(FILE *f, const char *prefix, const sb_command *cmd);

/* `sbledger --help`: the usage, the global options, every command with its
 * summary (aligned, by group), where to read more, the exit statuses. */
void cli_help_commands(FILE *f);

/* `sbledger COMMAND --help`: usage, the help text, the period forms when
 * the command takes --period, its subcommands (rates: rates set, ...),
 * and its examples, last. */
void cli_help_command(FILE *f, const sb_command *cmd);

/* `sbledger WORD --help` for a word that is no command but starts some
 * (import, report, fetch, export): their names and summaries.  Returns
 * false, printing nothing, when no command starts with WORD; f NULL only
 * asks. */
bool cli_help_group(FILE *f, const char *word);

/* The man page, in roff, from the same text. */
void cli_help_man(FILE *f);

#endif
