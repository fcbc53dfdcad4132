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

typedef struct sb_err {
	int code;                  /* enum sb_code; SB_OK while no error */
	char msg[SB_ERR_MSG_MAX];  /* what is wrong, without "sbledger: " */
} sb_err;

/* Reset e to "no error". */
void sb_err_clear(sb_err *e);

/* Record code and a printf-style message in e unless e already holds an
 * error (first error wins).  A message longer than SB_ERR_MSG_MAX - 1
 * bytes is cut and ends with "..." (here and in sb_err_prefix), never
 * silently shorter.  Returns the code now held by e, so that a
 * caller can write "return sb_fail(e, SB_EDATA, ...);". */
int sb_fail(sb_err *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefix the message held by e with "PREFIX: " (for adding the file name
 * or the command to an error raised deeper down), the prefix cut (with
 * "...") at 511 bytes.  No-op when e is clear. */
void sb_err_prefix(sb_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The more serious of two exit codes, for commands that go on past an
 * error (several files) and must exit with the worst one. */
int sb_code_worst(int a, int b);

#endif
