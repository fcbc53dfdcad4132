-- The maximum memory_peak_mb of the rollup groups marked -1 (a run whose
-- maximum it may have been was replaced or taken out), found again among
-- the runs left: the runs of each such day read once through the index on
-- started_ms (unixepoch(day) the day's first second); a group left with no
-- run gets 0.  Statement after statement, before the commit.
UPDATE run_day SET memory_peak_mb = f.peak
  FROM (SELECT r.started_day AS day, r.backend, COALESCE(r.model, '') AS model,
               MAX(r.memory_peak_mb) AS peak
          FROM (SELECT DISTINCT day FROM run_day WHERE memory_peak_mb < 0) s
          JOIN run r ON r.started_ms >= unixepoch(s.day) * 1000
                    AND r.started_ms < unixepoch(s.day) * 1000 + 86400000
         GROUP BY r.started_day, r.backend, COALESCE(r.model, '')) f
 WHERE run_day.memory_peak_mb < 0 AND run_day.day = f.day AND run_day.backend = f.backend
   AND run_day.model = f.model;
UPDATE run_day_tag SET memory_peak_mb = f.peak
  FROM (SELECT t.name, r.started_day AS day, t.value, r.backend, COALESCE(r.model, '') AS model,
               MAX(r.memory_peak_mb) AS peak
          FROM (SELECT DISTINCT day FROM run_day_tag WHERE memory_peak_mb < 0) s
          JOIN run r ON r.started_ms >= unixepoch(s.day) * 1000
                    AND r.started_ms < unixepoch(s.day) * 1000 + 86400000
          JOIN run_tag t ON t.rid = r.rid
         GROUP BY t.name, r.started_day, t.value, r.backend, COALESCE(r.model, '')) f
 WHERE run_day_tag.memory_peak_mb < 0 AND run_day_tag.name = f.name AND run_day_tag.day = f.day
   AND run_day_tag.value = f.value AND run_day_tag.backend = f.backend AND run_day_tag.model = f.model;
UPDATE run_day_untagged SET memory_peak_mb = f.peak
  FROM (SELECT n.name, r.started_day AS day, r.backend, COALESCE(r.model, '') AS model,
               MAX(r.memory_peak_mb) AS peak
          FROM (SELECT DISTINCT day FROM run_day_untagged WHERE memory_peak_mb < 0) s
          JOIN run r ON r.started_ms >= unixepoch(s.day) * 1000
                    AND r.started_ms < unixepoch(s.day) * 1000 + 86400000
          JOIN run_tag_name n
            ON NOT EXISTS (SELECT 1 FROM run_tag t WHERE t.rid = r.rid AND t.name = n.name)
         GROUP BY n.name, r.started_day, r.backend, COALESCE(r.model, '')) f
 WHERE run_day_untagged.memory_peak_mb < 0 AND run_day_untagged.name = f.name
   AND run_day_untagged.day = f.day AND run_day_untagged.backend = f.backend
   AND run_day_untagged.model = f.model;
UPDATE run_day SET memory_peak_mb = 0 WHERE memory_peak_mb < 0;
UPDATE run_day_tag SET memory_peak_mb = 0 WHERE memory_peak_mb < 0;
UPDATE run_day_untagged SET memory_peak_mb = 0 WHERE memory_peak_mb < 0;
