-- The values tag :name has on any run, for telling a customer that does
-- not exist from one with no runs in a period.  Alphabetical, at most 20.
SELECT DISTINCT value FROM run_tag WHERE name = :name ORDER BY value LIMIT 20;
