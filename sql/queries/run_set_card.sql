-- Store a run's card cost and lifetime cost.
UPDATE run SET card_nanos = :card_nanos, lifetime_nanos = :lifetime_nanos WHERE rid = :rid;
