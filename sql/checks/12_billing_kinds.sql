-- A billed line has an amount and a metered one has none but vCPU and memory time; no period ends before it starts.
-- The query lists what breaks it.
SELECT 'billing line ' || lid || ' (' || format || ' ' || line_key || '): '
       || CASE WHEN end_ms < start_ms THEN 'its charge period ends before it starts'
               WHEN kind = 'billed' THEN 'billed without an amount'
               WHEN kind = 'metered' THEN 'metered with an amount, or without vCPU and memory time'
               ELSE 'kind ' || kind || ' is neither billed nor metered' END
  FROM billing_line
 WHERE end_ms < start_ms
    OR NOT ((kind = 'billed' AND amount_nanos IS NOT NULL)
         OR (kind = 'metered' AND amount_nanos IS NULL AND vcpu_ms IS NOT NULL AND memory_mb_ms IS NOT NULL));
