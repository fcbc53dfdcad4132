# An empty file, or one of blank lines, holds no records: exit 65.
: > empty.jsonl
printf '\n   \n\r\n\t\n' > blank.jsonl
sb init >/dev/null
sb import runs empty.jsonl
sb import runs blank.jsonl
sb import runs empty.jsonl
sb batches --format csv
