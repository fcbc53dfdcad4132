-- One event of a flag, after its others.
INSERT INTO flag_event (flag_id, seq, at_ms, action, reason, who, recon_id, batch_id)
VALUES (:flag_id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM flag_event WHERE flag_id = :flag_id),
        :now_ms, :action, :reason, :who, :recon_id, :batch_id);
