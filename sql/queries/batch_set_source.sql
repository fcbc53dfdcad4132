-- The source of a batch, named once it is known (a fetch's URL, when the
-- body was read from a temporary copy).
UPDATE batch SET source = :source WHERE batch_id = :batch_id;
