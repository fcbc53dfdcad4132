-- Runs that list executions have them stored; summary-only runs have none.
-- The query lists what breaks it.
SELECT 'run ' || r.run_id || ': has_executions is ' || r.has_executions || ' but '
       || (SELECT COUNT(*) FROM execution x WHERE x.rid = r.rid) || ' executions are stored'
  FROM run r
 WHERE (r.has_executions = 1) <> EXISTS (SELECT 1 FROM execution x WHERE x.rid = r.rid);
