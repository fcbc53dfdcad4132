-- The end of taking out batch :batch_id (after its replaced runs were put
-- back): the history of what it replaced, the rollup rows left at zero (a
-- group with no run left), and the maximum memory of the groups it left
-- (rollup_fix_max.sql), statement after statement.
DELETE FROM execution_history
 WHERE hid IN (SELECT hid FROM run_history WHERE replaced_by_batch = :batch_id);
DELETE FROM run_history WHERE replaced_by_batch = :batch_id;
DELETE FROM run_day
 WHERE runs = 0 AND exec_ms = 0 AND computed_nanos = 0 AND input_tokens = 0 AND output_tokens = 0
   AND exec_count = 0 AND cpu_ms = 0 AND bytes_read = 0 AND bytes_written = 0 AND billed_nanos = 0
   AND billed_runs = 0 AND card_nanos = 0 AND card_runs = 0;
DELETE FROM run_day_tag
 WHERE runs = 0 AND exec_ms = 0 AND computed_nanos = 0 AND input_tokens = 0 AND output_tokens = 0
   AND exec_count = 0 AND cpu_ms = 0 AND bytes_read = 0 AND bytes_written = 0 AND billed_nanos = 0
   AND billed_runs = 0 AND card_nanos = 0 AND card_runs = 0;
DELETE FROM run_day_untagged
 WHERE runs = 0 AND exec_ms = 0 AND computed_nanos = 0 AND input_tokens = 0 AND output_tokens = 0
   AND exec_count = 0 AND cpu_ms = 0 AND bytes_read = 0 AND bytes_written = 0 AND billed_nanos = 0
   AND billed_runs = 0 AND card_nanos = 0 AND card_runs = 0;
