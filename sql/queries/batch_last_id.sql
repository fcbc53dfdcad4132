-- The newest batch's number (0 when there is none).
SELECT COALESCE(MAX(batch_id), 0) AS batch_id                  -- the highest batch_id
  FROM batch;
