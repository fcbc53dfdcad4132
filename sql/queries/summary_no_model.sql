-- report summary: the runs started in [:from_ms, :to_ms) that have tokens
-- but name no model (their token cost is unknown), by run_id, the first
-- :limit of them, each row with how many there are in all.
SELECT r.run_id,                  -- the run
       COUNT(*) OVER () AS runs   -- how many such runs the period has
  FROM run r
 WHERE r.started_ms >= :from_ms AND r.started_ms < :to_ms
   AND r.model IS NULL AND (r.input_tokens <> 0 OR r.output_tokens <> 0)
 ORDER BY r.run_id
 LIMIT :limit;
