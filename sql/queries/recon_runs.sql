-- Per backend, the runs started in [:from_ms, :to_ms): counts, the sums of
-- section 6, the runs' own billed_cost_usd where their session has no live
-- line of kind billed (fill_billed) or metered (fill_metered) in any period
-- (Tax lines cover nothing), over the runs that have ended_at, the
-- figures of the explanation, and the runs with no rate card in force at
-- their start (card_nanos NULL: their card cost is unknown, never 0) with
-- the earliest such start.
SELECT r.backend,
       COUNT(*) AS runs,
       COUNT(DISTINCT r.session_id) AS sessions,
       SUM(r.exec_count),
       SUM(r.computed_nanos),
       SUM(r.billed_nanos),
       SUM(CASE WHEN NOT EXISTS (SELECT 1 FROM billing_line l
                                  WHERE l.backend = r.backend AND l.session_id = r.session_id
                                    AND l.kind = 'billed' AND l.superseded_by IS NULL
                                    AND COALESCE(l.category, '') <> 'Tax')
                THEN r.billed_nanos END) AS fill_billed,
       SUM(CASE WHEN NOT EXISTS (SELECT 1 FROM billing_line l
                                  WHERE l.backend = r.backend AND l.session_id = r.session_id
                                    AND l.kind = 'metered' AND l.superseded_by IS NULL)
                THEN r.billed_nanos END) AS fill_metered,
       COUNT(r.ended_ms) AS ended,
       SUM(CASE WHEN r.ended_ms IS NOT NULL THEN r.total_duration_ms END) AS exec_ms,
       SUM(r.ended_ms - r.started_ms) AS lifetime_ms,
       SUM(r.lifetime_nanos) AS lifetime_nanos,
       COUNT(r.lifetime_nanos) AS lifetime_priced,
       SUM(CASE WHEN r.ended_ms IS NOT NULL THEN r.card_nanos END) AS ended_card_nanos,
       COUNT(CASE WHEN r.ended_ms IS NOT NULL THEN r.card_nanos END) AS ended_card_priced,
       COUNT(*) - COUNT(r.card_nanos) AS unpriced,
       MIN(CASE WHEN r.card_nanos IS NULL THEN r.started_ms END) AS unpriced_from_ms
  FROM run r
 WHERE r.started_ms >= :from_ms AND r.started_ms < :to_ms
 GROUP BY r.backend
 ORDER BY r.backend;
