-- backend_grain: the grains set per backend
SELECT g.backend, -- backend id
       g.grain,   -- day, month or auto
       g.set_ms   -- when it was set
  FROM backend_grain g;
