-- The size of the ledger file in bytes (its pages, free ones included).
SELECT p.page_count * s.page_size AS bytes   -- pages times their size
  FROM pragma_page_count() p, pragma_page_size() s;
