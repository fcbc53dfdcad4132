-- backend_region: the regions each backend runs in
SELECT g.backend, -- backend id
       g.region   -- region id
  FROM backend_region g;
