-- run_execs: the executions of each run that lists any, as the stored JSON array
-- Left out: rid (the run's row id): the run by its run_id instead.
SELECT r.run_id,  -- the run
       x.execs    -- its executions in the record's order, the JSON text as stored
  FROM run_execs x
  LEFT JOIN run r ON r.rid = x.rid;
