# prices set: USD per million input and output tokens, exact decimals.
sb init >/dev/null
sb prices
sb prices set gpt-5.6-terra --input-per-m 1.25 --output-per-m 10
sb prices set claude-x-mini --input-per-m 8E-1 --output-per-m 4
sb prices set claude-x-mini --input-per-m 0.75 --output-per-m 4.000000001
sb prices
sb prices --format json
sqlite3 sbledger.db 'SELECT * FROM model_price ORDER BY model'
sb prices set m --input-per-m 1.5.0 --output-per-m 1
