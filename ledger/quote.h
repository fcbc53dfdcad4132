/* quote.h: names in messages, quoted so that they read as one word and
 * paste into a shell as one.
 *
 * Every name a message carries (a file, a backend, a session, a model, a
 * tag, a customer, a JSON key) comes from somewhere sbledger does not
 * control: an inbox file may be named "a\nsbledger: all clear", a
 * provider may send a backend with an escape sequence in it.  Written
 * raw, such a name would forge lines in the mail cron sends or drive the
 * reader's terminal.  sb_quote writes a name so that it is one shell word
 * that means the name exactly:
 *
 *   - plain names (letters, digits and - _ . / : + , @ %, not empty),
 *     with SB_QUOTE_IF_NEEDED, as they are: runs.jsonl, inbox/runs/a.jsonl
 *   - others in single quotes, a ' inside written '\'' as a shell reads
 *     it: 'my file', 'it'\''s'
 *   - a name holding a control character (or bytes that are not UTF-8)
 *     in the shell's $'...' quoting, each such byte escaped: \n, \t, \r,
 *     \e, \\, \', \xHH, and \u0080 .. \u009f for the C1 controls, so that
 *     the text holds no control character at all: $'a\nb'
 *
 * A command a message suggests ("sbledger prices set '-2+3' ...") is
 * built from these words; an operand that starts with '-' must also
 * follow "--" there (sb_quote_is_option tells).  Nothing here allocates.
 */
#ifndef SB_QUOTE_H
#define SB_QUOTE_H

#include <stdbool.h>
#include <stddef.h>

/* How sb_quote treats a plain name. */
enum {
	SB_QUOTE_ALWAYS = 0,     /* quoted even when plain: 'modal' */
	SB_QUOTE_IF_NEEDED = 1   /* plain names as they are: modal */
};

/* Bytes sb_quote may need for a name of len bytes, with the NUL: every
 * byte escaped (\xHH), "$''" and the NUL. */
#define SB_QUOTE_SIZE(len) (4 * (len) + 4)

/* A buffer for one quoted name in a message (longer names are cut, with
 * "..." after the closing quote). */
#define SB_QUOTE_BUFSZ 512

/* Write name quoted as described above into buf (cap bytes with the NUL)
 * and return buf.  When it does not fit it is cut at a character, its
 * quote closed, and "..." follows.  NULL is written as '' (an empty
 * name). */
const char *sb_quote(const char *name, int how, char *buf, size_t cap);

/* True when name would be taken for an option where a command expects an
 * operand (it starts with '-'): a suggested command then writes "--"
 * before it. */
bool sb_quote_is_option(const char *name);

/* How the user ran sbledger, so that a command a message, a mail or a
 * page suggests runs as printed from where it was run: the program as
 * it was invoked and the ledger as it was given.  The command line fills
 * it (the library never reads argv nor the environment) and hands it to
 * what prints commands. */
typedef struct sb_invocation {
	const char *program;  /* argv[0] when it holds a '/' ("./sbledger"), else NULL: "sbledger" */
	const char *db;       /* --db as given; NULL when the ledger came from $SBLEDGER_DB or
	                         is the default ./sbledger.db (a command without --db finds it) */
} sb_invocation;

/* A buffer for sb_invocation_words: a program and a ledger of a few
 * thousand bytes each, quoted (longer ones are cut as sb_quote cuts). */
#define SB_INVOCATION_BUFSZ 8192

/* The words a suggested command begins with, each one shell word
 * (sb_quote): the program, then "--db" and the ledger when inv->db is
 * set ("./sbledger --db 'my ledger.db'"); "sbledger" for inv NULL.  Into
 * buf (cap bytes, SB_INVOCATION_BUFSZ); returns buf. */
const char *sb_invocation_words(const sb_invocation *inv, char *buf, size_t cap);

#endif
