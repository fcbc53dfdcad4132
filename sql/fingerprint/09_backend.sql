-- backend: what each backend can do
SELECT k.backend,       -- backend id
       k.network,       -- network access
       k.persistent,    -- persistent sessions
       k.max_cpu,       -- most vCPUs
       k.max_memory_mb  -- most memory
  FROM backend k;
