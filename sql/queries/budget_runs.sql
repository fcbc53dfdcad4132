-- report budget: the runs started in [:from_ms, :to_ms) with what their
-- two meters need, by backend, session, start.  session_billed is the sum
-- of the live USD billing lines of kind billed (Tax apart) naming the
-- run's session (NULL when none, or when any of them is not in USD:
-- session_foreign); session_weight and session_runs are the lifetimes
-- (exec time where a run has no ended_at, a negative one, clock skew,
-- as 0) and the number of all the session's runs, in any period, to
-- split that bill by (found in both parts of the session index:
-- sql/schema/010_scale.sql).
SELECT r.run_id,
       r.backend,
       r.session_id,
       r.plan,
       r.model,
       r.started_ms,
       r.ended_ms,
       r.budget_nanos,
       r.input_tokens,
       r.output_tokens,
       p.input_per_m_nanos,
       p.output_per_m_nanos,
       r.computed_nanos,
       r.billed_nanos,
       r.lifetime_nanos,
       r.total_duration_ms,
       (SELECT SUM(l.amount_nanos) FROM billing_line l
         WHERE l.backend = r.backend AND l.session_id = r.session_id AND l.kind = 'billed'
           AND l.superseded_by IS NULL AND COALESCE(l.category, '') <> 'Tax'
           AND l.currency = 'USD') AS session_billed,
       (SELECT COUNT(*) FROM billing_line l
         WHERE l.backend = r.backend AND l.session_id = r.session_id AND l.kind = 'billed'
           AND l.superseded_by IS NULL AND l.currency <> 'USD') AS session_foreign,
       (SELECT SUM(w) FROM
          (SELECT COALESCE(o.ended_ms - o.started_ms,
                           CASE WHEN o.total_duration_ms > 0 THEN o.total_duration_ms ELSE 0 END) AS w
             FROM run o WHERE o.backend = r.backend AND o.session_id = r.session_id AND o.recent = 0
           UNION ALL
           SELECT COALESCE(o.ended_ms - o.started_ms,
                           CASE WHEN o.total_duration_ms > 0 THEN o.total_duration_ms ELSE 0 END)
             FROM run o WHERE o.backend = r.backend AND o.session_id = r.session_id AND o.recent <> 0) s)
           AS session_weight,
       (SELECT COUNT(*) FROM run o
         WHERE o.backend = r.backend AND o.session_id = r.session_id AND o.recent = 0)
       + (SELECT COUNT(*) FROM run o
           WHERE o.backend = r.backend AND o.session_id = r.session_id AND o.recent <> 0) AS session_runs
  FROM run r
  LEFT JOIN model_price p ON p.model = r.model
 WHERE r.started_ms >= :from_ms AND r.started_ms < :to_ms
 ORDER BY r.backend, r.session_id NULLS FIRST, r.started_ms, r.run_id;
