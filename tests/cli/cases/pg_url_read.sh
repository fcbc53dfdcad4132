# A PostgreSQL ledger's URL is read by libpq's parser before anything
# connects or prints (docs/postgresql.md, "The URL"); no server is needed
# for any of this.  A password under every spelling libpq takes is
# refused (64) and never printed: in the userinfo, password= in the
# query, its key percent-encoded, after other options, in a URL libpq
# cannot read at all, the TLS key's sslpassword.  An option libpq does not
# know (a key that decodes to "password=" is one), and a value libpq
# would take only to refuse it when connecting, are usage errors naming
# the option.  Only a connection that really failed is 75, its message
# naming the URL as libpq read it (options in libpq's order,
# postgresql://).  What sbledger printed is searched for the password
# (the labels here write it SECRET).
sb --db lite.db init >/dev/null
{
for url in \
	'postgresql://postgres:pgsecret@localhost/ledger' \
	'postgresql://postgres@localhost/ledger?password=pgsecret' \
	'postgresql://postgres@localhost/ledger?pass%77ord=pgsecret' \
	'postgres://postgres@localhost/ledger?sslmode=disable&%70assword=pgsecret' \
	'postgresql://postgres:pgsecret@[::1/ledger' \
	'postgresql://postgres@localhost/ledger?password=pgsecret%zz' \
	'postgresql://postgres@localhost/ledger?sslpassword=pgsecret' \
	'postgresql://postgres@localhost/ledger?password%3D=pgsecret' \
	'postgresql://postgres@localhost/ledger?foo=1' \
	'postgresql://postgres@localhost/ledger?sslmode=bogus' \
	'postgresql://postgres@localhost/ledger?port=notaport' \
	'postgresql://postgres@localhost:65536/ledger' \
	'postgresql://postgres@localhost/ledger?connect_timeout=10s'; do
	echo "--db $url" | sed 's/pgsecret/SECRET/'
	sb --db "$url" init
done
# every command reads the URL the same way, and copy's ledgers too
sb --db 'postgresql://postgres@localhost/ledger?pass%77ord=pgsecret' batches
sb copy --from 'postgresql://postgres@localhost/ledger?pass%77ord=pgsecret' --to copy.db
sb copy --from lite.db --to 'postgresql://postgres@localhost/ledger?sslmode=bogus'
echo "copy.db made: $(ls copy.db 2>/dev/null | wc -l)"
# the edges of a port: 65535 is one; a server that is not there is 75
sb --db 'postgres://postgres@127.0.0.1:1/ledger?sslmode=disable&connect_timeout=2' init
sb --db 'postgresql://postgres@127.0.0.1:65535/ledger?sslmode=disable&connect_timeout=2' batches
} >printed
cat printed
echo "lines with the password in what sbledger printed: $(grep -c pgsecret printed)"
