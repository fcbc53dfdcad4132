-- The tracked tag names (sql/schema/010_scale.sql), whose untagged runs are rolled up.
SELECT name FROM run_tag_name ORDER BY name;
