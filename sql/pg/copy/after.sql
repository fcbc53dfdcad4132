-- After 'sbledger copy' stored rows with their ids into a PostgreSQL
-- ledger: each identity column's sequence goes on after the largest id
-- stored (else the next row would be given an id already taken).  SQLite
-- needs nothing: a rowid is the largest plus one.
DO $$
DECLARE
    c record;
BEGIN
    FOR c IN SELECT table_name, column_name
               FROM information_schema.columns
              WHERE table_schema = current_schema() AND is_identity = 'YES'
    LOOP
        EXECUTE format('SELECT setval(pg_get_serial_sequence(%L, %L), COALESCE((SELECT MAX(%I) FROM %I), 0) + 1, false)',
                       c.table_name, c.column_name, c.column_name, c.table_name);
    END LOOP;
END
$$;
