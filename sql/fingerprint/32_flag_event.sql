-- flag_event: every event of every flag
SELECT v.flag_id, v.seq, v.at_ms, v.action, v.reason, v.who, v.recon_id, v.batch_id -- the event
  FROM flag_event v;
