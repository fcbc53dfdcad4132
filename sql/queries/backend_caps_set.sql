-- What a provider's catalog says its largest plan offers: the most vCPUs
-- and memory a session of the backend can have.
UPDATE backend
   SET max_cpu = :max_cpu, max_memory_mb = :max_memory_mb
 WHERE backend = :backend;
