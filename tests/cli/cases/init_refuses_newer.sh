# A ledger whose schema is newer than this binary is refused, untouched.
# cli-tests: sqlite (a SQLite file's PRAGMA user_version)
sqlite3 newer.db 'PRAGMA application_id=1396853831; PRAGMA user_version=99;'
cp newer.db before
known() { sed 's/this sbledger knows ([0-9]*)/this sbledger knows (N)/'; }
sb --db newer.db init | known
sb --db newer.db batches | known
sb --db newer.db import runs newer.db | known
cmp newer.db before && echo unchanged
sqlite3 newer.db 'PRAGMA user_version'
