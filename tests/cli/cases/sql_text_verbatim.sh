# Text that looks like SQL (or a printf format) in every text field of
# every importer, and in command-line values, is stored and printed back
# verbatim: statements are bound, never pasted; the ledger's tables all
# stay, check passes.
for fmt in runs record focus modal daytona e2b-events deepinfra-usage; do
	python3 "$REPO/tests/reliability/hostile.py" $fmt sql > sql.$fmt
done
sb init >/dev/null
sb import runs sql.runs
for fmt in record focus modal daytona e2b-events deepinfra-usage; do
	sb import billing --format $fmt sql.$fmt
done
echo "== runs"
sqlite3 sbledger.db "SELECT run_id, session_id, plan, model, tags, extra FROM run ORDER BY rid"
sqlite3 sbledger.db "SELECT command FROM execution ORDER BY rid"
sqlite3 sbledger.db "SELECT name, value FROM run_tag ORDER BY rid, name"
echo "== billing lines"
# (all but the lines keyed by the SHA-256 of their row, 64 characters from
# 0-9a-f first and last, with no session)
sqlite3 sbledger.db "SELECT format, line_key, session_id, invoice_id, unit, tags, extra FROM billing_line
 WHERE NOT ((substr(line_key, 1, 1) BETWEEN '0' AND '9' OR substr(line_key, 1, 1) BETWEEN 'a' AND 'f')
        AND (substr(line_key, 64, 1) BETWEEN '0' AND '9' OR substr(line_key, 64, 1) BETWEEN 'a' AND 'f'))
    OR length(line_key) <> 64 OR session_id IS NOT NULL ORDER BY lid"
echo "== every table is there"
# (counted in the engine's own catalog: the tables of a PostgreSQL ledger
# but the engine's sbledger_meta, those of a SQLite file)
case ${SBLEDGER_DB:-} in
postgres*)
	sqlite3 sbledger.db "SELECT COUNT(*) FROM information_schema.tables
 WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'sbledger_meta'"
	;;
*) sqlite3 sbledger.db "SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table'" ;;
esac
sb check | tail -1
echo "== values given on the command line"
sb lines --period 2026 --session "' OR 1=1 --" --format csv
sb report summary --period 2026-11 --by "tag:'); DROP TABLE run; --" --format csv
sb invoice --period 2026-11 --by tag:customer --customer "x' OR '1'='1"
sb prices set "m'); DROP TABLE run; --" --input-per-m 1 --output-per-m 2
sb prices --format csv
sb report summary --period 2026-11 --by tag:customer --format csv
sqlite3 sbledger.db "SELECT COUNT(*) FROM run"
