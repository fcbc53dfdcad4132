-- A rejected line, verbatim.  A line seen again after a resume keeps its first reason.
INSERT INTO reject (batch_id, line_no, reason, content, full_length)
VALUES (:batch_id, :line_no, :reason, :content, :full_length)
ON CONFLICT (batch_id, line_no) DO NOTHING;
