-- A rejected record, verbatim (several records may share a line).
INSERT INTO reject (batch_id, line_no, reason, content, full_length)
VALUES (:batch_id, :line_no, :reason, :content, :full_length);
