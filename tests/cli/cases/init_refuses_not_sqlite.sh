# A file that is not SQLite is refused and left as it was, by init and by
# every other command.
printf 'my notes, not a ledger\n' > notes.db
cp notes.db before
sb --db notes.db init
sb --db notes.db batches
sb --db notes.db import runs notes.db
cmp notes.db before && echo unchanged
