# import billing's --supersede, --period and --delimiter from the command
# line: a reissue read from standard input (it is read once), the period a
# file covers, a file whose lines are of several lengths refused (64) with
# nothing changed, and the usage errors of the new options.
H=BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,ServiceName
printf '%s\n%s\n%s\n%s\n' "$H" \
	"1.00,USD,2026-11-01 00:00:00,2026-11-02 00:00:00,AWS,EC2" \
	"2.00,USD,2026-11-02 00:00:00,2026-11-03 00:00:00,AWS,EC2" \
	"30.00,USD,2026-11-01 00:00:00,2026-12-01 00:00:00,AWS,Support" >v1.csv
sb init >/dev/null
sb import billing --format focus v1.csv
echo "== a reissue of Nov 2 on standard input, ';'-separated"
printf '%s\n%s\n' "$(echo "$H" | tr , ';')" "2.50;USD;2026-11-02 00:00:00;2026-11-03 00:00:00;AWS;EC2" |
	sb import billing --format focus --supersede --period 2026-11-02 -
sb lines --period 2026-11 --format csv | cut -d, -f1,7,10,23
echo "== the same without --period: a day and a month, refused"
printf '%s\n%s\n%s\n' "$H" \
	"2.75,USD,2026-11-02 00:00:00,2026-11-03 00:00:00,AWS,EC2" \
	"31.00,USD,2026-11-01 00:00:00,2026-12-01 00:00:00,AWS,Support" >v3.csv
sb import billing --format focus --supersede v3.csv
sb batches | cut -c1-60
sb lines --period 2026-11 --format csv | cut -d, -f1,7,10,23
echo "== with it"
sb import billing --format focus --supersede --period 2026-11-02 v3.csv
sb lines --period 2026-11 --format csv | cut -d, -f1,7,10,23
echo "== without --supersede, a changed charge is refused naming its batch"
printf '%s\n%s\n' "$H" "1.10,USD,2026-11-01 00:00:00,2026-11-02 00:00:00,AWS,EC2" >v4.csv
sb import billing --format focus v4.csv
sb rejects --batch 5
echo "== usage errors"
sb import billing --format focus --period 2026-11 v1.csv
sb import billing --format daytona --delimiter ';' v1.csv
sb import billing --format focus --delimiter '|' v1.csv
sb import billing --format focus --supersede --period 2026-13 v1.csv
echo "== check: a pending line of an ended batch, a row count kept after the end"
sqlite3 sbledger.db "INSERT INTO billing_line_pending (format, line_key, batch_id, line_no, backend, start_ms, end_ms, kind, amount_nanos, currency, correction, source_row) VALUES ('focus', 'k', 4, 9, 'aws', 0, 0, 'billed', 1, 'USD', 0, 'x'); INSERT INTO billing_row_seen VALUES (1, 'abc', 1)"
sb check | grep -v '^ok'
