# rates import: a JSON array of cards, all or none.  What 'rates --format
# json' prints reads back in.
sb init >/dev/null
"$SB" rates --format json > seeded.json
sb rates import seeded.json
sqlite3 sbledger.db 'SELECT COUNT(*) FROM rate_card'
cat > cards.json <<'JSON'
[{"backend": "e2b", "usd_per_minute": "0.07", "from": "2026-11-01"},
 {"backend": "ModalSandboxClient", "plan": "gpu", "usd_per_minute": 0.5, "usd_per_cpu_second": "0.00001",
  "effective_from": "2026-11-02T12:00:00Z"},
 {"backend": "local", "free": true, "from": "2026-11-01"}]
JSON
sb rates import cards.json
sb rates --all --format csv | grep -e backend -e e2b -e modal -e local
# one bad card: none of the file is stored
cat > bad.json <<'JSON'
[{"backend": "vercel", "usd_per_minute": "0.2", "from": "2026-11-01"},
 {"backend": "daytona", "usd_per_minute": "-0.2"}]
JSON
sb rates import bad.json
printf '{"backend": "vercel", "usd_per_minute": "0.2"}\n' > notarray.json
sb rates import notarray.json
printf '[{"backend": "vercel", "usd_per_minute": 0.2,]\n' > broken.json
sb rates import broken.json
printf '[{"backend": "vercel"}]\n' > norate.json
sb rates import norate.json
printf '[{"backend": "vercel", "usd_per_minute": 0.2, "from": "next week"}]\n' > baddate.json
sb rates import baddate.json
sb rates import missing.json
sqlite3 sbledger.db "SELECT COUNT(*) FROM rate_card WHERE backend IN ('vercel', 'daytona')"
# a key that is no field of a card: refused, naming it and its card, and
# nothing is stored ("form" would otherwise leave the card in force from now)
cat > typo.json <<'JSON'
[{"backend": "vercel", "usd_per_minute": "0.2", "from": "2026-11-01"},
 {"backend": "vercel", "plan": "big", "usd_per_minute": "0.4", "form": "2026-11-01"}]
JSON
sb rates import typo.json
printf '[{"backend": "vercel", "usd_per_minute": "0.2", "comment": "new list price"}]\n' > comment.json
sb rates import comment.json
sqlite3 sbledger.db "SELECT COUNT(*) FROM rate_card WHERE backend = 'vercel'"
# the runs a card reprices are counted
printf '{"run_id": "r1", "backend": "vercel", "started_at": "2026-11-05T00:00:00Z", "sandbox_usage": {"exec_count": 1, "total_duration_ms": 60000}}\n' > runs.jsonl
sb import runs runs.jsonl >/dev/null
printf '[{"backend": "vercel", "usd_per_minute": "0.2", "from": "2026-11-01"}, {"backend": "vercel", "usd_per_minute": "0.3", "from": "2026-12-01"}]\n' > two.json
sb rates import two.json
