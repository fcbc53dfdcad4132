-- When the newest complete fetch of billing format :format began (NULL:
-- none yet): a fetch's batch is named by the URL it read, a file of the
-- same format by its path.  The nightly fetches again from the day that
-- fetch covered, so that the nights it missed are fetched too.
SELECT MAX(started_ms) AS started_ms
  FROM batch
 WHERE kind = 'billing' AND format = :format AND status = 'complete'
   AND (source LIKE 'http://%' OR source LIKE 'https://%');
