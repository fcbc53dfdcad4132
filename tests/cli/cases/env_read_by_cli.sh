# The command line reads the environment and hands the library what it
# holds: a key that is not set, and an HTTP option that does not parse,
# are said in the command line's words before anything is sent.  nightly
# says the bad option first, leaves the fetches out, runs the rest and
# exits 64.
unset VERCEL_TOKEN DEEPINFRA_API_KEY SBLEDGER_HTTP_RETRIES
sb init >/dev/null
mkdir -p inbox/runs
cp "$SAMPLES/runs.jsonl" inbox/runs/
echo "== a key not set"
sb fetch billing --provider vercel --period 2026-11-02 --base-url https://127.0.0.1:1
echo "== an HTTP option that does not parse"
SBLEDGER_HTTP_RETRIES=-1 sb fetch billing --provider vercel --period 2026-11-02 --base-url https://127.0.0.1:1
SBLEDGER_HTTP_RETRIES=x VERCEL_TOKEN=sbl-test-0123456789 sb --quiet nightly --inbox inbox --period 2026-11-02 --fetch vercel --out reports | sed "s|$(pwd)/|./|g"
echo "== nightly: a key not set, the rest still runs"
sb --quiet nightly --inbox inbox --period 2026-11-02 --fetch vercel --out reports | sed "s|$(pwd)/|./|g"
sqlite3 sbledger.db "SELECT CAST(COUNT(*) AS TEXT) || ' batches, ' || CAST(SUM(CASE WHEN kind = 'runs' THEN 1 ELSE 0 END) AS TEXT) || ' of runs' FROM batch"
