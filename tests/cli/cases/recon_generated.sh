# The reconciler against the reference model (tests/ref/recon_model.py) on
# 40 generated scenarios of seed "cli" (tests/ref/gen_scenarios.py: runs at
# the period's edges, FOCUS days billed at the tolerance, a nanodollar
# under and over it, reissues with --supersede over a span with a line
# straddling it, sessions, the billing lag's edge, pending), each compared
# field by field; the seeds of make check and make check-long are others.
python3 "$REPO/tests/ref/check_scenarios.py" --sbledger "$(command -v "$SB")" --seed cli --count 40 --jobs 2
echo "[exit $?]"
