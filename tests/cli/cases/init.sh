# init creates the ledger (mode 0600), seeded; running it again changes
# nothing.  The schema version is normalized: it grows with each migration.
# cli-tests: sqlite (the ledger file's mode, PRAGMA journal_mode and application_id)
version() { sed 's/schema version [0-9]*/schema version N/'; }
sb init | version
stat -c '%a %F' sbledger.db
sqlite3 sbledger.db 'PRAGMA journal_mode; PRAGMA application_id; SELECT COUNT(*) FROM rate_card; SELECT COUNT(*) FROM backend'
sqlite3 sbledger.db "INSERT INTO model_price VALUES ('kept', 1, 2, 3)"
sb init | version
sqlite3 sbledger.db 'SELECT model FROM model_price; SELECT COUNT(*) FROM rate_card'
# --db before or after the command, and $SBLEDGER_DB
sb --db a.db init | version
sb init --db b.db | version
sb --db=c.db init | version
SBLEDGER_DB=d.db sb init | version
SBLEDGER_DB=d.db sb batches
stat -c '%a %n' a.db b.db c.db d.db
# --quiet says nothing
sb --quiet --db e.db init
sb init -q --db e.db
