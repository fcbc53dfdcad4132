-- Whether a reconciliation of exactly [:from_ms, :to_ms) is stored.
SELECT CASE WHEN EXISTS (SELECT 1 FROM reconciliation
                          WHERE from_ms = :from_ms AND to_ms = :to_ms)
            THEN 1 ELSE 0 END AS stored;
