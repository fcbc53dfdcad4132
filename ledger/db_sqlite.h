/* db_sqlite.h: the SQLite connection under a ledger, for the tests that
 * look at SQLite itself (query plans, pragmas, a file's schema) and for
 * nothing else: the program reaches its ledger through ledger/db.h
 * only (make rooms-check holds it to that). */
#ifndef SB_DB_SQLITE_H
#define SB_DB_SQLITE_H

#include <sqlite3.h>

#include "ledger/db.h"

/* db's SQLite connection (borrowed), or NULL when db is not a SQLite
 * ledger. */
sqlite3 *sb_db_sqlite(sb_db *db);

/* st's SQLite statement (borrowed); st must be of a SQLite ledger. */
sqlite3_stmt *sb_stmt_sqlite(sb_stmt *st);

/* Record the SQLite result code rc of db's connection in e, as the exit
 * code it deserves: busy or locked past the timeout SB_ETEMP ("the ledger
 * is busy"), disk full or I/O SB_EIO, a read-only file SB_EIO, not a
 * database or damaged SB_EDATA, anything else SB_EINTERNAL; the message
 * says what was being done (what).  Returns e->code. */
int sb_db_sqlite_error(sb_db *db, int rc, const char *what, sb_err *e);

#endif
