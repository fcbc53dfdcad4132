# The help walked from 'sbledger --help': the global list in full (every
# command with its one-line summary, the global options, --version), then
# for every command it lists: 'COMMAND --help' exits 0 on stdout, is the
# same as 'help COMMAND' and as '-h', starts with its usage and ends with
# an Examples block of its own command lines; the period forms wherever
# --period is taken.  (tests/test_help.c holds every row of the command
# table to its options.)  Then the groups (import, report, fetch, export),
# help for what does not exist, and --version.
sb --help
sb --help >list.txt
sed -n 's/^  \([a-z][a-z]*\( [a-z][a-z]*\)\{0,1\}\)  .*/\1/p' list.txt >commands.txt
echo "== $(wc -l <commands.txt | tr -d ' ') commands listed"
while read -r cmd; do
	"$SB" $cmd --help >a.txt 2>err.txt; a=$?
	"$SB" help $cmd >b.txt 2>>err.txt; b=$?
	"$SB" $cmd -h >c.txt 2>>err.txt; c=$?
	what="exit $a $b $c"
	cmp -s a.txt b.txt && cmp -s a.txt c.txt || what="$what, help COMMAND and -h differ"
	[ -s err.txt ] && what="$what, stderr: $(head -1 err.txt)"
	head -1 a.txt | grep -q "^usage: sbledger $cmd" || what="$what, no usage line"
	# the last block: "Examples:" then indented lines of this command
	last=$(awk 'BEGIN{RS=""} {b=$0} END{print b}' a.txt)
	case $last in
	Examples:*) ;;
	*) what="$what, the last block is not Examples" ;;
	esac
	echo "$last" | sed 1d | grep -v "^  \([A-Z_]*=[^ ]* \)*sbledger .*$cmd" && what="$what, an example of another command"
	if grep -q -- '--period P' a.txt; then
		grep -q 'this-month, last-month' a.txt && what="$what, periods explained" || what="$what, PERIODS NOT EXPLAINED"
	fi
	echo "$cmd: $what"
done <commands.txt
echo "== groups"
for g in import report fetch export; do
	sb $g --help
done
sb help import
sb import | sed -n '1p;$p'
sb rates --help | sed -n '/^Subcommands/,/^$/p'
echo "== what does not exist"
sb help nosuch
sb help import bogus
sb nosuch --help
echo "== version"
sb --version | sed '1s/[0-9][0-9.]*/X/'
ls
