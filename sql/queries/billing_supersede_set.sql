-- Mark a batch as superseding, with the period it covers (NULL and NULL: the span of its lines).
INSERT INTO billing_supersede (batch_id, from_ms, to_ms) VALUES (:batch_id, :from_ms, :to_ms);
