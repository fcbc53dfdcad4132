-- Remove the card of the same backend, plan and effective instant (replaced).
DELETE FROM rate_card
 WHERE backend = :backend AND COALESCE(plan, '') = :plan AND effective_ms = :effective_ms;
