-- Whether some run, in any period, has tag :name = :value.
SELECT COUNT(*) FROM run_tag WHERE name = :name AND value = :value;
