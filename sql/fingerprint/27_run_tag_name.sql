-- run_tag_name: the tracked tag names, whose untagged runs are rolled up
-- Kept whole, though it holds the first 32 names seen: while the runs
-- have 32 names or fewer it holds them all, whatever the order the files
-- came in; past 32 which names it holds depends on that order (and so
-- do the rows of run_day_untagged), and ledgers filled in different
-- orders differ here.
SELECT n.name -- a tag name some stored run has had
  FROM run_tag_name n;
