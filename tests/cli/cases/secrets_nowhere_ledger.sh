# API keys never reach the ledger, on either engine: after the commands of
# secrets_nowhere (a host that does not answer, --verbose tracing, a URL
# that tries to carry credentials, nightly's fetches), the ledger's whole
# content holds neither key.  Its content: the SQLite file's bytes (and
# those of its side files), or pg_dump's of a PostgreSQL ledger (a bytea
# such as a rejected line's bytes written as they are); that the
# search reads the ledger is shown by a run id of the sample found there.
DEEPINFRA_API_KEY=sbl-secret-deepinfra-7c1e
VERCEL_TOKEN=sbl-secret-vercel-93ab
SBLEDGER_HTTP_RETRIES=0
export DEEPINFRA_API_KEY VERCEL_TOKEN SBLEDGER_HTTP_RETRIES
mkdir -p inbox/runs
cp "$SAMPLES/runs.jsonl" inbox/runs/
"$SB" init >/dev/null
run() {
	"$SB" "$@" >/dev/null 2>&1
	echo "$*: exit $?"
}
run fetch catalog --provider deepinfra --base-url https://127.0.0.1:1 --verbose
run fetch usage --provider deepinfra --period 2026-11 --base-url https://127.0.0.1:1 --verbose
run fetch billing --provider vercel --period 2026-11 --base-url https://127.0.0.1:1 --verbose
run fetch usage --provider deepinfra --period 2026-11 --base-url "https://user:$DEEPINFRA_API_KEY@127.0.0.1:1"
run fetch usage --provider deepinfra --period 2026-11 --base-url "https://127.0.0.1:1/?key=$DEEPINFRA_API_KEY"
SBLEDGER_DEEPINFRA_URL=https://127.0.0.1:1 SBLEDGER_VERCEL_URL=https://127.0.0.1:1 \
	run nightly --inbox inbox --period 2026-11 --out reports --fetch deepinfra,vercel --verbose
# the ledger's content, whichever engine holds it
case ${SBLEDGER_DB:-} in
postgres*)
	# (bytea written as its bytes, printable ones as they are, not in hex)
	PGOPTIONS="-c bytea_output=escape" "$(sh "$REPO/tools/pg_cluster.sh" bindir)/pg_dump" --no-owner -d "$SBLEDGER_DB" >ledger.content 2>dump.err ||
		{ echo "pg_dump failed"; cat dump.err; }
	;;
*) cat sbledger.db* >ledger.content ;;
esac
grep -a -q 'run-1-000000' ledger.content && echo "the sample's runs are in the ledger's content" ||
	echo "THE SAMPLE'S RUNS ARE NOT IN THE LEDGER'S CONTENT: it was not searched"
echo "lines with a key in the ledger's content: $(grep -a -c -e "$DEEPINFRA_API_KEY" -e "$VERCEL_TOKEN" ledger.content)"
