# A reissue over a span (--supersede --period 2026-11-02..2026-11-04)
# replaces the live lines of its backends lying inside the span (start in
# it, end by its end) and the same charges as its lines, nothing else.
# The reissue bills vercel's CPU of Nov 2 (1.10) only; the other lines are
# another ServiceName (Storage), so only the span decides them:
#   vercel CPU Nov 2 (1.00): the same charge: superseded
#   vercel storage Nov 3 00:00 - Nov 4 00:00 (0.40): inside, ends at the end: superseded
#   vercel storage Nov 1 12:00 - Nov 2 12:00 (0.20): straddles the start: live
#   vercel storage Nov 3 12:00 - Nov 4 12:00 (0.30): straddles the end: live
#   vercel storage Nov 4 - Nov 5 (0.50): starts at the end: outside, live
#   vercel CPU Nov 5 (3.00): outside, live
#   runloop CPU Nov 2 (5.00): inside, another backend: live
# Vercel's billed for Nov 1-6 is then 0.20 + 1.10 + 0.30 + 0.50 + 3.00 = 5.10
# (account-level lines of several lengths: not one grid, the period as given).
h=BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ServiceProviderName,ServiceName
cat >v1.csv <<CSV
$h
1.00,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,Usage,Vercel,CPU
0.40,USD,2026-11-03T00:00:00Z,2026-11-04T00:00:00Z,Usage,Vercel,Storage
0.20,USD,2026-11-01T12:00:00Z,2026-11-02T12:00:00Z,Usage,Vercel,Storage
0.30,USD,2026-11-03T12:00:00Z,2026-11-04T12:00:00Z,Usage,Vercel,Storage
0.50,USD,2026-11-04T00:00:00Z,2026-11-05T00:00:00Z,Usage,Vercel,Storage
3.00,USD,2026-11-05T00:00:00Z,2026-11-06T00:00:00Z,Usage,Vercel,CPU
5.00,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,Usage,Runloop,CPU
CSV
cat >v2.csv <<CSV
$h
1.10,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,Usage,Vercel,CPU
CSV
sb init >/dev/null
sb import billing --format focus v1.csv
sb import billing --format focus --supersede --period 2026-11-02..2026-11-04 v2.csv
sb lines --period 2026-11-01..2026-11-07
SBLEDGER_NOW=2026-12-20T00:00:00Z sb reconcile --period 2026-11-01..2026-11-07 --dry-run
