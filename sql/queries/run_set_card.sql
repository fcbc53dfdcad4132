-- Store a run's card cost.
UPDATE run SET card_nanos = :card_nanos WHERE rid = :rid;
