-- The next sequence number of an invoice number prefix: 1 + the highest
-- ever given, so that a number never repeats.
SELECT COALESCE(MAX(number_seq), 0) + 1 FROM invoice WHERE number_prefix = :prefix;
