# A SQLite database of another program is refused, byte for byte untouched
# (not even switched to WAL), by init and by every other command.
# cli-tests: sqlite (another program's SQLite file, left byte for byte, PRAGMA journal_mode)
sqlite3 other.db "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')"
cp other.db before
sb --db other.db init
sb --db other.db check
sb --db other.db report summary --period 2026-11
cmp other.db before && echo unchanged
test -e other.db-wal && echo "a -wal file appeared"
sqlite3 other.db 'PRAGMA journal_mode; SELECT body FROM notes'
