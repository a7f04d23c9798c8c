-- Pool histories in PostgreSQL (api/src/modules/scanner/pg-pool-history.ts), used with
-- DATABASE_URL instead of the per-pool files of DATA_DIR/pool-history: one row per pool (its
-- DeFiLlama id in lower case) per UTC day. A /pools import upserts the day's row (the latest
-- snapshot of a day wins); a /chart backfill inserts the days a pool does not have
-- (ON CONFLICT DO NOTHING: days held keep their row).
CREATE TABLE pool_history (
  pool       text             NOT NULL,
  day        date             NOT NULL,
  apy        double precision NOT NULL,
  apy_base   double precision,
  apy_reward double precision,
  tvl_usd    double precision NOT NULL,
  PRIMARY KEY (pool, day)
);

-- The backfill's 24-hour memory of the pools it fetched or tried (modules/scanner/backfill-tries.ts):
-- the newest try of each pool, whichever process made it.
CREATE TABLE backfill_tries (
  pool     text        PRIMARY KEY,
  tried_at timestamptz NOT NULL,
  ok       boolean     NOT NULL
);
CREATE INDEX backfill_tries_tried_at_idx ON backfill_tries (tried_at);

-- The backfill's requests-per-minute budget shared by every process (pool-backfill.ts): per
-- upstream, the send times (ms since the epoch, the backfill's clock) of the last 60 seconds.
-- A request is counted under the row's lock only when fewer than the budget were sent.
CREATE TABLE backfill_budget (
  upstream text               PRIMARY KEY,
  sent     double precision[] NOT NULL DEFAULT '{}'
);
