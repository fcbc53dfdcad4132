-- No row points at a missing row (foreign keys).
-- The query lists what breaks it.
SELECT 'table ' || "table" || ': row ' || COALESCE(rowid, 0) || ' points at a missing ' || parent
  FROM pragma_foreign_key_check;
