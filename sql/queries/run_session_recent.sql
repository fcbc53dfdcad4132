-- How many runs the recent part of the session index holds, and the
-- highest row id (about how many runs there are: COUNT(*) would read
-- every run): an import merges the parts when the first passes an eighth
-- of the second.
SELECT (SELECT COUNT(*) FROM run WHERE recent <> 0) AS recent, -- through the recent part
       (SELECT COALESCE(MAX(rid), 0) FROM run) AS runs;          -- the last row id
