# API keys come from the environment only and never reach the output, the
# messages, the ledger or any file written, whatever goes wrong: a host
# that does not answer, --verbose tracing, a URL that tries to carry
# credentials, nightly's fetches.  (tests/http checks the same against a
# provider that answers, and one that echoes the key back.)  The files
# searched include the ledger's own; secrets_nowhere_ledger searches the
# ledger's content on either engine.
# cli-tests: sqlite (the ledger's files, ./sbledger.db and its -lock, are among the files searched and counted)
DEEPINFRA_API_KEY=sbl-secret-deepinfra-7c1e
VERCEL_TOKEN=sbl-secret-vercel-93ab
SBLEDGER_HTTP_RETRIES=0
export DEEPINFRA_API_KEY VERCEL_TOKEN SBLEDGER_HTTP_RETRIES
mkdir -p inbox/runs
cp "$SAMPLES/runs.jsonl" inbox/runs/
"$SB" init >/dev/null
run() {
	"$SB" "$@" >>all.out 2>>all.err
	echo "$*: exit $?"
}
run fetch catalog --provider deepinfra --base-url https://127.0.0.1:1 --verbose
run fetch usage --provider deepinfra --period 2026-11 --base-url https://127.0.0.1:1 --verbose
run fetch billing --provider vercel --period 2026-11 --base-url https://127.0.0.1:1 --verbose
run fetch usage --provider deepinfra --period 2026-11 --base-url "https://user:$DEEPINFRA_API_KEY@127.0.0.1:1"
run fetch usage --provider deepinfra --period 2026-11 --base-url "https://127.0.0.1:1/?key=$DEEPINFRA_API_KEY"
SBLEDGER_DEEPINFRA_URL=https://127.0.0.1:1 SBLEDGER_VERCEL_URL=https://127.0.0.1:1 \
	run nightly --inbox inbox --period 2026-11 --out reports --fetch deepinfra,vercel --verbose
run batches --format json
run rejects --format json
# the key given on the command line is the user's doing; everywhere else:
grep -v -- '--base-url' all.err | grep -c -e "$DEEPINFRA_API_KEY" -e "$VERCEL_TOKEN"
grep -rl -e "$DEEPINFRA_API_KEY" -e "$VERCEL_TOKEN" . | grep -v 'all\.err' | sort
echo "files searched: $(find . -type f | wc -l)"
