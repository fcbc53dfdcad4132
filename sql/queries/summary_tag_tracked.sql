-- Whether report summary --by tag:NAME can read the day rollups for :tag:
-- 1 when it is a tracked name (sql/schema/010_scale.sql, run_tag_name), 0
-- when no run has it (every run is untagged), -1 when some run has it but
-- it is not tracked (the runs are read: summary_tag.sql).
SELECT CASE WHEN EXISTS (SELECT 1 FROM run_tag_name WHERE name = :tag) THEN 1
            WHEN EXISTS (SELECT 1 FROM run_tag WHERE name = :tag) THEN -1
            ELSE 0 END;
