# A way out that a refusal names works when it is taken: a file whose
# records were refused with "--supersede replaces it" (billing) or
# "--replace keeps this version" (runs) is read again when run with that
# option, though a complete batch has the file; the same request again is
# "already imported", and so is a request differing only in --strict.
H=BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,ServiceName
printf '%s\n%s\n' "$H" "1.00,USD,2026-11-01 00:00:00,2026-11-02 00:00:00,AWS,EC2" >v1.csv
printf '%s\n%s\n' "$H" "1.10,USD,2026-11-01 00:00:00,2026-11-02 00:00:00,AWS,EC2" >v2.csv
sb init >/dev/null
sb import billing --format focus v1.csv
echo "== a changed charge, refused with the way out"
sb import billing --format focus v2.csv
echo "== the way out taken"
sb import billing --format focus --supersede --period 2026-11-01 v2.csv
sb lines --period 2026-11 --format csv | cut -d, -f1,7,10,23
echo "== the same request again, and with --strict: already imported"
sb import billing --format focus --supersede --period 2026-11-01 v2.csv
sb import billing --format focus --supersede --period 2026-11-01 --strict v2.csv
echo "== another period is another request"
sb import billing --format focus --supersede --period 2026-11-01..2026-11-03 v2.csv
sb lines --period 2026-11 --format csv | cut -d, -f1,7,10,23
echo "== runs: a conflict, then --replace"
R='{"run_id":"r1","backend":"modal","started_at":"2026-11-01T10:00:00Z","ended_at":"2026-11-01T10:01:00Z","sandbox_usage":{"exec_count":1,"total_duration_ms":60000,"computed_cost_usd":COST,"executions":[{"command":"x","duration_ms":60000,"cost_usd":COST}]}}'
echo "$R" | sed 's/COST/0.01/g' >a.jsonl
echo "$R" | sed 's/COST/0.02/g' >b.jsonl
sb import runs a.jsonl
sb import runs b.jsonl
sb import runs --replace b.jsonl
sb import runs --replace b.jsonl
sb import runs b.jsonl
sb batches | cut -c1-72
sb check | grep -v '^ok'
