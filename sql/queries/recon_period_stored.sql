-- Whether a reconciliation of exactly [:from_ms, :to_ms) is stored.
SELECT EXISTS (SELECT 1 FROM reconciliation
                WHERE from_ms = :from_ms AND to_ms = :to_ms) AS stored;
