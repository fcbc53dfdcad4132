#!/usr/bin/env python3
"""gen_focus_sample.py: a FOCUS 1.0-shaped CSV with the traits of the FinOps
Foundation's sample data, and its per-provider totals worked out apart
from sbledger.

    python3 tests/gen_focus_sample.py OUT.csv [ROWS]

writes ROWS (default 300) rows to OUT.csv and prints one line per provider,
"BACKEND TOTAL" (TOTAL with 9 decimals), sorted by backend.  The traits:
the sample's 44 quoted column names (ProviderName, no ServiceProviderName;
an Id column), unquoted NULL for absent values (ChargeClass always, and
ResourceId, Tags, CommitmentDiscountId and AvailabilityZone in some
rows), times "YYYY-MM-DD HH:MM:SS" without an offset (a few with a T),
amounts with 11 decimals (some exactly half a nanodollar past it, some
negative credits), Tags as JSON in a quoted cell with doubled quotes, an
x_ column, LF line ends, and a few rows repeated word for word (two
identical rows of one file are two charges).

The totals: each row's BilledCost rounded half to even to the nanodollar
(1e-9), then summed, with Python's decimal; the backend is ProviderName
lower-cased without spaces.  Deterministic (a fixed seed).
"""
import random
import sys
from decimal import Decimal, ROUND_HALF_EVEN

COLUMNS = [
    "AvailabilityZone", "BilledCost", "BillingAccountId", "BillingAccountName", "BillingCurrency",
    "BillingPeriodEnd", "BillingPeriodStart", "ChargeCategory", "ChargeClass", "ChargeDescription",
    "ChargeFrequency", "ChargePeriodEnd", "ChargePeriodStart", "CommitmentDiscountCategory",
    "CommitmentDiscountId", "CommitmentDiscountName", "CommitmentDiscountStatus",
    "CommitmentDiscountType", "ConsumedQuantity", "ConsumedUnit", "ContractedCost",
    "ContractedUnitPrice", "EffectiveCost", "InvoiceIssuerName", "ListCost", "ListUnitPrice",
    "PricingCategory", "PricingQuantity", "PricingUnit", "ProviderName", "PublisherName", "RegionId",
    "RegionName", "ResourceId", "ResourceName", "ResourceType", "ServiceCategory", "Id",
    "ServiceName", "SkuId", "SkuPriceId", "SubAccountId", "SubAccountName", "Tags", "x_Source",
]

PROVIDERS = [
    ("AWS", "Amazon Web Services, Inc.", ["us-west-2", "us-east-1", "eu-central-1"],
     ["Amazon Elastic Compute Cloud", "Amazon Simple Storage Service", "Elastic Load Balancing"]),
    ("Microsoft", "Microsoft", ["westeurope", "eastus"], ["Virtual Machines", "Storage"]),
    ("Oracle", "Oracle", ["us-ashburn-1"], ["Compute", "Block Storage"]),
]

NANO = Decimal("0.000000001")


def q(text):
    """A quoted CSV cell."""
    return '"' + text.replace('"', '""') + '"'


def amount(r):
    """An 11-decimal amount: most random, some exactly on a half nanodollar,
    some credits."""
    kind = r.random()
    if kind < 0.15:
        nanos = r.randrange(0, 5000)
        return Decimal(nanos) * NANO + Decimal("0.00000000050")
    value = Decimal(r.randrange(0, 10**9)) * Decimal("0.00000000001")
    if kind > 0.93:
        value = -value
    return value


def main():
    out = sys.argv[1]
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    r = random.Random(20240918)
    totals = {}
    lines = [",".join(q(c) for c in COLUMNS)]
    made = []
    while len(made) < rows:
        if made and r.random() < 0.03:
            made.append(made[r.randrange(len(made))])   # a row repeated word for word
            continue
        provider, issuer, regions, services = PROVIDERS[r.randrange(len(PROVIDERS))]
        cost = amount(r)
        day = r.randrange(1, 31)
        hour = r.randrange(0, 23)
        sep = "T" if r.random() < 0.1 else " "
        start = "2024-09-%02d%s%02d:00:00" % (day, sep, hour)
        end = "2024-09-%02d%s%02d:00:00" % (day, sep, hour + 1)
        region = regions[r.randrange(len(regions))]
        service = services[r.randrange(len(services))]
        sku = "SKU%04d" % r.randrange(10000)
        resource = "NULL" if r.random() < 0.3 else q("arn:%s:%s:res-%05d" % (provider.lower(), region, r.randrange(100000)))
        tags = "NULL" if r.random() < 0.25 else q('{"application": "App%d", "environment": "%s"}' % (r.randrange(9), r.choice(["dev", "prod"])))
        category = "Credit" if cost < 0 else "Usage"
        text = format(cost, ".11f")
        cells = [
            "NULL" if r.random() < 0.8 else q(region + "a"), text, q("1234567890123"), q("SunBird"), q("USD"),
            q("2024-10-01 00:00:00"), q("2024-09-01 00:00:00"), q(category), "NULL",
            q("$%s per unit of %s in %s" % (r.choice(["0.01", "0.085", "0.114"]), service, region)),
            q("Usage-Based"), q(end), q(start), "NULL",
            "NULL" if r.random() < 0.9 else q("cd-%d" % r.randrange(99)), "NULL", "NULL", "NULL",
            "%.15f" % r.random(), q("GB"), "0.00000000000", "0.00000000000", text, q(issuer), text,
            q("0.01"), q("Standard"), "%.11f" % r.random(), q("GB"), q(provider), q(issuer), q(region),
            q(region.upper()), resource, "NULL", "NULL", q("Compute"), str(r.randrange(10**6)),
            q(service), q(sku), q(sku + ".PRICE"), q(str(r.randrange(10**11))), q("Team"), tags,
            q("generated"),
        ]
        assert len(cells) == len(COLUMNS)
        made.append((provider, cost, ",".join(cells)))
    for provider, cost, line in made:
        backend = provider.lower().replace(" ", "")
        totals[backend] = totals.get(backend, Decimal(0)) + cost.quantize(NANO, rounding=ROUND_HALF_EVEN)
        lines.append(line)
    with open(out, "w", newline="") as f:
        f.write("\n".join(lines) + "\n")
    for backend in sorted(totals):
        print("%s %s" % (backend, format(totals[backend].quantize(NANO), "f")))


if __name__ == "__main__":
    main()
