# rates import: a JSON number is read from its digits, as a rate given as
# text is (never through a double); half to even past the ninth decimal.
cp "$FIX/json_exact/rates.json" .
sb init >/dev/null
sb rates import rates.json
sb rates --format json | grep -E '"(backend|usd_per_[a-z_]*)"'
