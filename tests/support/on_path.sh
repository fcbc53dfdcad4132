# on_path.sh: sourced by the runners that run sbledger as an installed one
# is run, by its name on PATH (tests/cli/run.sh, tests/html/render.sh): a
# command sbledger suggests begins as it was run (docs/rules.md), so run
# so it says "sbledger", whichever build or wrapper is under test.
#
# sb_on_path FILE DIR: put the sbledger at FILE first on PATH (exported),
# its own directory when FILE is named sbledger, else a link DIR/bin/sbledger
# to it; returns 1 when the link cannot be made.
sb_on_path() {
	if [ "$(basename "$1")" = sbledger ]; then
		PATH=$(dirname "$1"):$PATH
	else
		mkdir -p "$2/bin" && ln -s "$1" "$2/bin/sbledger" || return 1
		PATH=$2/bin:$PATH
	fi
	export PATH
}
