# --help on every command (exit 0, on stdout), and the global help.
for cmd in init check batches rejects "import runs" rates "rates set" "rates import" backends prices "prices set" "report summary"; do
	echo "== $cmd"
	sb $cmd --help
done
echo "== global"
sb --help | head -3
sb help | head -1
sb --version | sed '1s/[0-9][0-9.]*/X/'
ls
