-- The row id the next run gets (run_load.sql): the highest + 1, as
-- SQLite gives a row that names none.  The end of the primary key.
SELECT COALESCE(MAX(rid), 0) + 1 FROM run;
