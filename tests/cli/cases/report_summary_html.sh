# report summary --format html: one self-contained page with the period,
# when it was made, a bar pair per group and the table.
cp "$SAMPLES/runs.jsonl" runs.jsonl
sb init >/dev/null
sb import runs runs.jsonl >/dev/null
sb report summary --period 2026-11 --by tag:customer --format html >page.html
head -5 page.html
grep -c 'class="pair"' page.html
grep -o 'data-key="[^"]*"' page.html
grep -o 'Period <b>[^<]*</b>' page.html
grep -o 'at <time[^>]*>' page.html
grep -c '<tr>' page.html
grep -Ec '(src|href)=|url\(|@import' page.html
sb report summary --period 2027 --format html | grep -o '<p>No runs[^<]*</p>'
