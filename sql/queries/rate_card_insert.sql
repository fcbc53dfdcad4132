-- A new rate card.
-- card_id: the largest plus one, on both engines (SQLite's rowid rule; a
-- PostgreSQL identity would skip the numbers of rolled-back inserts).
INSERT INTO rate_card (card_id, backend, plan, effective_ms, usd_per_minute_nanos,
                       usd_per_cpu_second_nanos, usd_per_gb_second_nanos, free, source)
VALUES ((SELECT COALESCE(MAX(card_id), 0) + 1 FROM rate_card), :backend, NULLIF(:plan, ''), :effective_ms, :usd_per_minute_nanos,
        :usd_per_cpu_second_nanos, :usd_per_gb_second_nanos, :free, :source);
