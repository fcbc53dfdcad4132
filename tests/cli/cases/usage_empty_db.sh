# An empty --db names no ledger: a usage error (64) that touches nothing,
# before the command or after it, as --db= too; no '-lock' file is made
# in the current directory, and nothing is taken for a ledger with hard
# links (the directory).  An empty $SBLEDGER_DB stands for no setting.
# cli-tests: sqlite (an empty $SBLEDGER_DB falls back to the file ./sbledger.db; no -lock file made)
sb --db '' init
sb batches --db ''
sb --db= batches
ls -A
SBLEDGER_DB= sb batches
sb init >/dev/null
SBLEDGER_DB= sb batches
