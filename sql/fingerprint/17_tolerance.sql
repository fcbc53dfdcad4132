-- tolerance: the drift tolerances set per backend
SELECT t.backend,   -- backend id
       t.abs_nanos, -- absolute tolerance
       t.rel_ppb,   -- relative tolerance, parts per 10^9
       t.updated_ms -- when it was set
  FROM tolerance t;
