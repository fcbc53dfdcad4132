# Usage errors that name the word at fault: an unknown short option inside
# a cluster ('-xy', or a name such as the model '-2+3' given where an
# option is read) is named itself, not the word before it; the way to
# give such a name, after the options and '--', works.
sb init >/dev/null
sb lines --period 2026 -xy
sb prices set -2+3 --input-per-m 1 --output-per-m 2
sb batches -q2
sb prices set --input-per-m 1 --output-per-m 2 -- -2+3
# a long option given a value it does not take is said to take none (it
# was 'unknown'); a short option after a long one is still named itself
sb import billing --format focus --strict=1 x.csv
sb lines --raw -x --period 2026
sb lines --format=json -xy --period 2026
