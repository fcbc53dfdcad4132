-- The grain set for :backend ('day', 'month' or 'auto'); no row: auto.
SELECT grain FROM backend_grain WHERE backend = :backend;
