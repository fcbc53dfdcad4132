-- Store a finalized invoice.
INSERT INTO invoice (number, number_prefix, number_seq, tag, customer, from_ms, to_ms, basis,
                     currency, total_nanos, runs, notes, created_ms)
VALUES (:number, :number_prefix, :number_seq, :tag, :customer, :from_ms, :to_ms, :basis,
        :currency, :total_nanos, :runs, :notes, :created_ms);
