/* words.h: the ways out the library names, in the command line's words.
 *
 * A library message that names a way out writes it in the library's own
 * words (ledger/err.h, SB_WORDS_*: "a superseding import replaces it").
 * Before the command line prints a message, or an import stores the
 * reason of a rejected record, those words become the option or command
 * that takes the way out ("--supersede replaces it"), so that the user
 * reads what to type.  The words are found by text, wherever they stand
 * in the message.  Nothing here allocates.
 */
#ifndef SB_CLI_WORDS_H
#define SB_CLI_WORDS_H

#include <stddef.h>

#include "ledger/quote.h"

/* Room for the words a suggested command begins with
 * (cli_invoked_words). */
#define CLI_INVOKED_MAX SB_INVOCATION_BUFSZ

/* Tell the words how this sbledger was run (main does, once, before any
 * message): every command they suggest then begins with inv's words
 * (sb_invocation_words), so that it runs as printed.  inv must outlive
 * every message; NULL (as before the call): "sbledger". */
void cli_words_invoked(const sb_invocation *inv);

/* The words a suggested command begins with, as cli_words_invoked set
 * them ("./sbledger --db 'my ledger.db'"), into buf; returns buf. */
const char *cli_invoked_words(char *buf, size_t cap);

/* The program alone, as invoked ("./sbledger", "sbledger"), one shell
 * word, into buf; returns buf. */
const char *cli_invoked_program(char *buf, size_t cap);

/* Rewrite msg (NUL-terminated, cap bytes in all) in place in the command
 * line's words (cut at cap when it grows past it).  An sb_words_fn
 * (ledger/err.h). */
void cli_words(char *msg, size_t cap);

/* The command that prices model: "sbledger prices set MODEL --input-per-m
 * X --output-per-m Y" (beginning with cli_invoked_words), MODEL one shell word (ledger/quote.h), after "--"
 * and the options when it starts with '-', so that the command runs as
 * printed once X and Y are filled in.  Into buf; returns buf. */
const char *cli_price_command(const char *model, char *buf, size_t cap);

#endif
