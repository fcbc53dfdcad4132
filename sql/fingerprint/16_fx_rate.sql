-- fx_rate: exchange rates, USD per unit of a currency, from an effective time
SELECT f.currency,     -- ISO 4217 code
       f.effective_ms, -- in force from
       f.usd_nanos     -- USD per unit x 10^9
  FROM fx_rate f;
