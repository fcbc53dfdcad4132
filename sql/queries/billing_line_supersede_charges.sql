-- A superseding batch replaces the live lines of other batches that are the same charge as one of
-- its pending lines (as in billing_line_same_charge.sql: same format, backend, session and
-- category, no correction on either, the same charge identity or with :loose none on one side,
-- overlapping periods).  reach is, per backend, the longest live charge period, so that each
-- pending line reads only the live lines starting at most that long before it.  CROSS JOIN keeps
-- the pending lines as the outer loop (SQLite does not reorder it), so that the live lines are
-- searched per pending line and never read whole; the three branches are those of
-- billing_line_same_charge.sql.
WITH reach (backend, ms) AS (
    SELECT l.backend, MAX(l.end_ms - l.start_ms)
      FROM billing_line l
     WHERE l.format = :format AND l.superseded_by IS NULL
       AND l.backend IN (SELECT p.backend FROM billing_line_pending p WHERE p.batch_id = :batch_id)
     GROUP BY l.backend)
UPDATE billing_line
   SET superseded_by = :batch_id
 WHERE lid IN (
       SELECT l.lid
         FROM billing_line_pending p
         CROSS JOIN reach r
         CROSS JOIN billing_line l
        WHERE r.backend = p.backend
          AND l.format = :format AND l.backend = p.backend
          AND l.session_id IS NOT DISTINCT FROM p.session_id
          AND l.charge_identity IS NOT DISTINCT FROM p.charge_identity AND l.superseded_by IS NULL
          AND l.start_ms >= p.start_ms - r.ms
          AND l.start_ms < CASE WHEN p.end_ms > p.start_ms THEN p.end_ms ELSE p.start_ms + 1 END
          AND p.batch_id = :batch_id AND p.correction = 0 AND l.correction = 0
          AND l.batch_id <> :batch_id
          AND CASE WHEN l.end_ms > l.start_ms THEN l.end_ms ELSE l.start_ms + 1 END > p.start_ms
          AND l.category IS NOT DISTINCT FROM p.category
        UNION ALL
       SELECT l.lid
         FROM billing_line_pending p
         CROSS JOIN reach r
         CROSS JOIN billing_line l
        WHERE r.backend = p.backend
          AND l.format = :format AND l.backend = p.backend
          AND l.session_id IS NOT DISTINCT FROM p.session_id
          AND l.charge_identity IS NULL AND l.superseded_by IS NULL
          AND l.start_ms >= p.start_ms - r.ms
          AND l.start_ms < CASE WHEN p.end_ms > p.start_ms THEN p.end_ms ELSE p.start_ms + 1 END
          AND p.batch_id = :batch_id AND p.correction = 0 AND l.correction = 0
          AND :loose <> 0 AND p.charge_identity IS NOT NULL
          AND l.batch_id <> :batch_id
          AND CASE WHEN l.end_ms > l.start_ms THEN l.end_ms ELSE l.start_ms + 1 END > p.start_ms
          AND l.category IS NOT DISTINCT FROM p.category
        UNION ALL
       SELECT l.lid
         FROM billing_line_pending p
         CROSS JOIN reach r
         CROSS JOIN billing_line l
        WHERE r.backend = p.backend
          AND l.format = :format AND l.backend = p.backend
          AND l.session_id IS NOT DISTINCT FROM p.session_id
          AND l.charge_identity IS NOT NULL AND l.superseded_by IS NULL
          AND l.start_ms >= p.start_ms - r.ms
          AND l.start_ms < CASE WHEN p.end_ms > p.start_ms THEN p.end_ms ELSE p.start_ms + 1 END
          AND p.batch_id = :batch_id AND p.correction = 0 AND l.correction = 0
          AND :loose <> 0 AND p.charge_identity IS NULL
          AND l.batch_id <> :batch_id
          AND CASE WHEN l.end_ms > l.start_ms THEN l.end_ms ELSE l.start_ms + 1 END > p.start_ms
          AND l.category IS NOT DISTINCT FROM p.category);
