-- The runs started in [:from_ms, :to_ms) that no rate card priced (no
-- card in force at their start: card_nanos NULL, their card cost unknown,
-- never 0), per backend: how many, and the earliest start (the day a card
-- must be in force from to price them all).  By backend.
SELECT r.backend,                       -- backend id
       COUNT(*) AS runs,                -- its runs with no card
       MIN(r.started_ms) AS first_ms    -- the earliest one's started_at
  FROM run r
 WHERE r.started_ms >= :from_ms AND r.started_ms < :to_ms AND r.card_nanos IS NULL
 GROUP BY r.backend
 ORDER BY r.backend;
