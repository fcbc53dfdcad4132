# fetch: usage errors and refusals that need no network: no provider, an
# unknown one, one without the endpoint, no period, a key not set, a key
# that would go over plain http (to a name, even one of this machine), a
# URL holding credentials, a key too short to be kept out of what is
# stored (7 characters; one of 8 passes, to the plain http rule), bad
# numbers.
sb init >/dev/null
sb fetch catalog
sb fetch catalog --provider nosuch
sb fetch usage --provider vercel --period 2026-11
sb fetch billing --provider vercel
sb fetch catalog --provider deepinfra --period 2026-11
env -u DEEPINFRA_API_KEY "$SB" fetch catalog --provider deepinfra 2>&1; echo "[exit $?]"
DEEPINFRA_API_KEY=sbl-k1-0123 sb fetch catalog --provider deepinfra --base-url http://api.example.com
DEEPINFRA_API_KEY=k123456 sb fetch catalog --provider deepinfra --base-url http://127.0.0.1:9
DEEPINFRA_API_KEY=k1234567 sb fetch catalog --provider deepinfra --base-url http://localhost:9
DEEPINFRA_API_KEY=k1 sb fetch catalog --provider deepinfra --base-url https://user:pw@api.example.com
DEEPINFRA_API_KEY=k1 sb fetch catalog --provider deepinfra --base-url 'https://api.example.com/?token=x'
DEEPINFRA_API_KEY=k1 sb fetch catalog --provider deepinfra --base-url ftp://api.example.com
DEEPINFRA_API_KEY='k 1' sb fetch catalog --provider deepinfra --base-url http://127.0.0.1:9
DEEPINFRA_API_KEY=k1 sb fetch catalog --provider deepinfra --timeout 0
DEEPINFRA_API_KEY=k1 sb fetch catalog --provider deepinfra --from someday
DEEPINFRA_API_KEY=k1 sb fetch usage --provider deepinfra --period 2026-11 --from 2026-11-01
DEEPINFRA_API_KEY=k1 SBLEDGER_HTTP_BACKOFF_MS=fast sb fetch catalog --provider deepinfra
sqlite3 sbledger.db "SELECT COUNT(*) FROM batch"
DEEPINFRA_API_KEY=k1 sb fetch catalog --provider deepinfra --cacert missing.pem
