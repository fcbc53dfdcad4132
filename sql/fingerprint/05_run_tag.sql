-- run_tag: the tags of each run, one row per tag
-- Left out: rid (the run's row id): the run by its run_id instead.
SELECT r.run_id, -- the run
       t.name,   -- tag name
       t.value   -- tag value
  FROM run_tag t
  LEFT JOIN run r ON r.rid = t.rid;
