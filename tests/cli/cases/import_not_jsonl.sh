# A file that is not JSON Lines at all: exit 65, each line's reason.
cat > export.csv <<'CSV'
run_id,backend,started_at
r1,e2b,2026-11-02T10:00:00Z
CSV
cat > page.html <<'HTML'
<!DOCTYPE html>
<html><body>Not found</body></html>
HTML
printf '[{"run_id": "r1", "backend": "e2b", "started_at": "2026-11-02T10:00:00Z", "sandbox_usage": {}}]\n' > array.json
sb init >/dev/null
sb import runs export.csv
sb import runs page.html
sb import runs array.json
sb rejects --format csv
sqlite3 sbledger.db 'SELECT COUNT(*) FROM run'
