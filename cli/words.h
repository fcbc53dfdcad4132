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

/* Rewrite msg (NUL-terminated, cap bytes in all) in place in the command
 * line's words (cut at cap when it grows past it).  An sb_words_fn
 * (ledger/err.h). */
void cli_words(char *msg, size_t cap);

/* The command that prices model: "sbledger prices set MODEL --input-per-m
 * X --output-per-m Y", MODEL one shell word (ledger/quote.h), after "--"
 * and the options when it starts with '-', so that the command runs as
 * printed once X and Y are filled in.  Into buf; returns buf. */
const char *cli_price_command(const char *model, char *buf, size_t cap);

#endif
