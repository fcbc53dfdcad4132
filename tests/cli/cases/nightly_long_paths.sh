# nightly: a report path longer than the system takes (PATH_MAX, 4096
# bytes with its NUL) is an error naming it, never a shorter path: no
# directory is made for a path cut short, the reconciliation is stored,
# the reports are said not written and nightly exits 74.
sb init >/dev/null
mkdir -p inbox/runs
cp "$SAMPLES/runs.jsonl" inbox/runs/
# OUT of 4080 bytes: OUT/2026-11 fits (4088), OUT/2026-11/report.html
# (4100) does not
out=$(python3 -c 'print("/".join(["o" * 254] * 16))')
echo "OUT is ${#out} bytes"
sb --quiet nightly --inbox inbox --period 2026-11 --out "$out" | sed "s|$out|OUT|g"
find . -name 'report*' -o -name '*.tmp' | sed "s|$out|OUT|g"
sqlite3 sbledger.db "SELECT COUNT(*) FROM reconciliation"
# OUT of 4090 bytes: OUT/2026-11 itself is too long (4098)
out=$(python3 -c 'print("/".join(["p" * 254] * 16) + "/" + "q" * 9)')
echo "OUT is ${#out} bytes"
sb --quiet nightly --inbox inbox --period 2026-11 --out "$out" | sed "s|$out|OUT|g"
[ -e p ] && echo "made p" || echo "made nothing under p"
