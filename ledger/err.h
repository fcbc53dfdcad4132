/* err.h: the error value every library call fills instead of printing.
 *
 * The core (ledger/, importers/, reconcile/) never prints and never exits.
 * A failing call records a code and a message in an sb_err and returns the
 * code; the command-line layer turns it into "sbledger: MESSAGE" on stderr
 * and the exit status of docs/rules.md.  First error wins: once an
 * sb_err holds a code, later sb_fail calls leave it untouched, so a chain of
 * calls can be checked once at the end.
 */
#ifndef SB_ERR_H
#define SB_ERR_H

#include <stdarg.h>
#include <stddef.h>

/* Codes are the exit statuses of docs/rules.md. */
enum sb_code {
	SB_OK = 0,
	SB_FLAGGED = 1,     /* reconciliation flagged something */
	SB_EUSAGE = 64,     /* bad command line */
	SB_EDATA = 65,      /* bad input data (rejected lines) */
	SB_ENOINPUT = 66,   /* input file missing or unreadable */
	SB_EREFUSED = 69,   /* a provider refused (401, 402, 4xx) */
	SB_EINTERNAL = 70,  /* internal error (a bug, or SQLite misbehaving) */
	SB_EIO = 74,        /* I/O error (disk full, stdout closed) */
	SB_ETEMP = 75       /* temporary failure: ledger locked, 429/5xx */
};

#define SB_ERR_MSG_MAX 1024

/* The way out of an error, named in the library's own terms.  A message
 * with a way out ends (or goes on) with that way out in the words
 * SB_WORDS_* below, never naming a command-line option: the library does
 * not know how its caller is driven.  A face turns those words into its
 * own: the command line replaces each by the option or command that does
 * it ("a superseding import replaces it" becomes "--supersede replaces
 * it"; cli/words.c), so what a user reads names the flag to try.  The
 * words are found by text, so they survive an error being prefixed or
 * copied into another; sb_err.hint says which way out the first error
 * named.  A placeholder (%s) in the words stands for what the way out
 * needs: a batch, a path, a period (a word without spaces, or the rest of
 * the message when the words end it). */
enum sb_hint {
	SB_HINT_NONE = 0,
	SB_HINT_BUSY,              /* the ledger stayed busy: wait longer for it */
	SB_HINT_INIT_EMPTY,        /* an empty file: make it a ledger */
	SB_HINT_INIT_MISSING,      /* no ledger: create one */
	SB_HINT_REJECTS,           /* rejected records were kept with a batch */
	SB_HINT_STRICT,            /* the import was all or nothing */
	SB_HINT_SUPERSEDE,         /* a superseding import replaces what it covers */
	SB_HINT_REPLACE,           /* importing again, replacing, keeps this version */
	SB_HINT_PERIOD_REISSUED,   /* a reissued statement needs the period it covers */
	SB_HINT_PERIOD_USAGE,      /* a usage report needs the period it covers */
	SB_HINT_PERIOD_END,        /* the end of the period the import was given */
	SB_HINT_PERIOD_START,      /* its start */
	SB_HINT_PERIOD_GIVEN,      /* the period an import was given */
	SB_HINT_NO_PERIOD,         /* an import given no period */
	SB_HINT_DELIMITER,         /* a CSV file needs its delimiter given */
	SB_HINT_FORMAT,            /* the format the import was given */
	SB_HINT_INTERVAL,          /* an hourly report needs an interval of an hour */
	SB_HINT_RESUME_SUPERSEDING, /* an interrupted superseding import: run it as begun */
	SB_HINT_RESUME_PLAIN,      /* an interrupted plain import: run it as begun */
	SB_HINT_MAX_BYTES,         /* a fetch can be given a larger limit */
	SB_HINT_CA,                /* another CA can be trusted */
	SB_HINT_BASE_URL,          /* check where the provider's API is */
	SB_HINT_KEY,               /* a fetch needs the provider's key */
	SB_HINT_TAG,               /* is the tag invoiced by the right one? */
	SB_HINT_ONE_CUSTOMER,      /* finalize one customer at a time */
	SB_HINT_PRICE,             /* a model needs a price */
	SB_HINT_COUNT              /* how many there are */
};

/* The words of each way out, in the order of enum sb_hint (printf
 * formats; a placeholder is %s). */
#define SB_WORDS_BUSY "try again later or allow a longer busy timeout"
#define SB_WORDS_INIT_EMPTY "make it one by initialising %s"
#define SB_WORDS_INIT_MISSING "create one by initialising %s"
#define SB_WORDS_REJECTS "its rejected records are kept with batch %s"
#define SB_WORDS_STRICT "(all or nothing: nothing of the file was imported)"
#define SB_WORDS_SUPERSEDE "a superseding import replaces it"
#define SB_WORDS_REPLACE "import it again, replacing what is stored, to keep this version"
#define SB_WORDS_PERIOD_REISSUED "give the period the reissued statement covers"
#define SB_WORDS_PERIOD_USAGE "give the import the period the usage report covers"
#define SB_WORDS_PERIOD_END "the end of the period given"
#define SB_WORDS_PERIOD_START "the start of the period given"
#define SB_WORDS_PERIOD_GIVEN "the period %s given"
#define SB_WORDS_NO_PERIOD "no period given"
#define SB_WORDS_DELIMITER "give the delimiter %s"
#define SB_WORDS_FORMAT "(required by the format %s)"
#define SB_WORDS_INTERVAL "(an hourly report needs an interval of an hour)"
#define SB_WORDS_RESUME_SUPERSEDING "was begun superseding: run it again superseding (and with %s) to complete it"
#define SB_WORDS_RESUME_PLAIN "was begun without superseding: run it again without superseding to complete it, then import the file again, superseding, as a new batch"
#define SB_WORDS_MAX_BYTES "(a larger limit can be given)"
#define SB_WORDS_CA "another CA can be trusted instead"
#define SB_WORDS_BASE_URL "check the provider's base URL"
#define SB_WORDS_KEY "no key for %s was given (its key is kept in %s)"
#define SB_WORDS_TAG "(is the tag %s the right one?)"
#define SB_WORDS_ONE_CUSTOMER "finalize the other customers one at a time, one customer each"
#define SB_WORDS_PRICE "(the model %s needs a price)"

typedef struct sb_err {
	int code;                  /* enum sb_code; SB_OK while no error */
	int hint;                  /* enum sb_hint: the way out the message names, if any */
	char msg[SB_ERR_MSG_MAX];  /* what is wrong, without "sbledger: " */
} sb_err;

/* A face's rewording of a message in place (msg NUL-terminated, cap
 * bytes in all): the ways out in its words (the command line's:
 * cli/words.h).  An import given one stores and reports every rejected
 * record's reason in those words. */
typedef void (*sb_words_fn)(char *msg, size_t cap);

/* The words of hint (SB_WORDS_*), "" for SB_HINT_NONE or an unknown one.
 * Static. */
const char *sb_hint_words(int hint);

/* sb_fail, the message naming the way out hint in its words (SB_WORDS_*),
 * and e->hint set to it. */
int sb_fail_hint(sb_err *e, int code, int hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Say that the error e holds names the way out hint (its words are in
 * the message).  No-op when e is clear or already names one (first error
 * wins).  Returns e's code. */
int sb_err_hint(sb_err *e, int hint);

/* Reset e to "no error". */
void sb_err_clear(sb_err *e);

/* Record code and a printf-style message in e unless e already holds an
 * error (first error wins).  A message longer than SB_ERR_MSG_MAX - 1
 * bytes is cut and ends with "..." (here and in sb_err_prefix), never
 * silently shorter.  Returns the code now held by e, so that a
 * caller can write "return sb_fail(e, SB_EDATA, ...);". */
int sb_fail(sb_err *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* sb_fail with its arguments as a va_list (for a function of the
 * library that takes a format of its own); the same cut with "...". */
int sb_vfail(sb_err *e, int code, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* Prefix the message held by e with "PREFIX: " (for adding the file name
 * or the command to an error raised deeper down), the prefix cut (with
 * "...") at 511 bytes.  No-op when e is clear. */
void sb_err_prefix(sb_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The more serious of two exit codes, for commands that go on past an
 * error (several files) and must exit with the worst one. */
int sb_code_worst(int a, int b);

#endif
