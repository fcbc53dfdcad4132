# CSV free-text cells a spreadsheet would run (docs/reports.md, "CSV that a
# spreadsheet opens safely"): a tag name and value, a session, a model and
# a command starting with each of = + - @ tab CR (fixtures/csv/
# make_inputs.py), in every CSV sbledger writes, with and without --raw.
# Guarded, each such cell gets one leading '; under --raw it is written as
# it is.  Numbers the program writes (-0.500000000, a credit; negative
# drift) stay bare.  Commands reach a CSV only as the text of a rejected
# line (rejects).  check_csv.py parses each output and checks the rule
# cell by cell; tabs and CRs are shown as <TAB> and <CR>.
python3 "$FIX/csv/make_inputs.py"
show() { sed 's/\t/<TAB>/g; s/\r/<CR>/g'; }
check() { mode=$1; name=$2; shift 2; "$SB" "$@" 2>/dev/null | python3 "$FIX/csv/check_csv.py" "$mode" "$name"; }
sb init >/dev/null
sb import runs '=runs.jsonl' >/dev/null 2>&1
sb import billing --format focus '@focus.csv' >/dev/null
for c in eq plus minus at tab cr; do
	case $c in
	eq) p='=' ;; plus) p='+' ;; minus) p='-' ;; at) p='@' ;; tab) p=$(printf '\t') ;; cr) p=$(printf '\r') ;;
	esac
	sb prices set --input-per-m 1 --output-per-m 2 -- "${p}model-$c" >/dev/null
done
sb rates set e2b --plan '=plan' --usd-per-minute 0.06 --from 2026-11-01 >/dev/null
sb fx set EUR 1.08 --from 2026-11-01 >/dev/null
sb tolerance set e2b --abs-tol 0.02 --rel-tol 0.1 >/dev/null
sb reconcile --period 2026-11 >/dev/null
# every CSV output, guarded and raw
for mode in guarded raw; do
	raw=
	[ $mode = raw ] && raw=--raw
	check $mode lines lines --period 2026-11 --format csv $raw
	check $mode fx fx --format csv $raw
	check $mode batches batches --format csv $raw
	check $mode rejects rejects --format csv $raw
	check $mode rates rates --all --format csv $raw
	check $mode backends backends --format csv $raw
	check $mode prices prices --format csv $raw
	check $mode reconciliations reconciliations --format csv $raw
	check $mode 'report drift' report drift --period 2026-11 --by period --format csv $raw
	check $mode tolerance tolerance --format csv $raw
	check $mode 'report budget' report budget --period 2026-11 --format csv $raw
	for by in backend session model tag:customer tag:=tag-eq tag:-tag-minus; do
		check $mode "report summary --by $by" report summary --period 2026-11 --by "$by" --format csv $raw
	done
	check $mode invoice invoice --period 2026-11 --by tag:customer --format csv $raw
	check $mode 'export focus' export focus --period 2026-11 $raw
done
# the cells themselves, guarded then raw
sb rejects --format csv | show
sb rejects --format csv --raw | show
sb report summary --period 2026-11 --by session --format csv | show
sb report summary --period 2026-11 --by session --format csv --raw | show
sb report summary --period 2026-11 --by model --format csv | show
sb report summary --period 2026-11 --by tag:+tag-plus --format csv | show
sb report summary --period 2026-11 --by tag:+tag-plus --format csv --raw | show
sb invoice --period 2026-11 --by tag:customer --format csv 2>/dev/null | show
sb export focus --period 2026-11 | show
sb export focus --period 2026-11 --raw | show
sb report drift --period 2026-11 --by period --format csv
sb lines --period 2026-11 --backend e2b --session "$(printf '\t')sess-tab" --format csv | cut -d, -f5,6,10 | show
sb batches --format csv | cut -d, -f1,4 | show
# nightly's summary.csv is always guarded (nightly has no --raw)
mkdir -p inbox/runs
cp '=runs.jsonl' inbox/runs/runs.jsonl
sb --db nightly.db init >/dev/null
"$SB" --db nightly.db --quiet nightly --inbox inbox --period 2026-11 --out reports >/dev/null 2>&1
python3 "$FIX/csv/check_csv.py" guarded summary.csv <reports/2026-11/summary.csv
cut -d, -f1,2,9 reports/2026-11/summary.csv | show
# --raw is an option of CSV commands only
sb reconcile --period 2026-11 --raw
sb import runs --raw x.jsonl
