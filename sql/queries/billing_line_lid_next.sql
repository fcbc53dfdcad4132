-- The row id the next billing line gets (billing_line_insert.sql): the highest + 1, as SQLite
-- gives a row that names none.  The end of the primary key.
SELECT COALESCE(MAX(lid), 0) + 1 FROM billing_line;
