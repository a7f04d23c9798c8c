-- The mutable user data in PostgreSQL (api/src/composition/pg-user-data.ts). Every rule that must hold
-- across processes is a constraint or a single statement here, never a read-then-write in the API.

-- Mailing list: one row per address whatever its letter case (the unique index decides).
CREATE TABLE mailing_list (
  seq        bigserial PRIMARY KEY,
  email      text        NOT NULL,
  source     text        NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX mailing_list_email_key ON mailing_list (lower(email));

-- Invite codes (scrypt hashes only). A use is spent by one conditional UPDATE of `uses`.
CREATE TABLE invites (
  seq        bigserial   NOT NULL,
  id         text        PRIMARY KEY,
  salt       text        NOT NULL,
  hash       text        NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz,
  max_uses   integer     CHECK (max_uses IS NULL OR max_uses > 0),
  uses       integer     NOT NULL DEFAULT 0 CHECK (uses >= 0),
  note       text,
  disabled   boolean     NOT NULL DEFAULT false
);

-- Premium users, one per invite use; `seq` keeps the order of creation ("newest without e-mail").
CREATE TABLE premium_users (
  seq           bigserial   NOT NULL,
  user_id       text        PRIMARY KEY,
  invite_id     text        NOT NULL,
  email         text,
  created_at    timestamptz NOT NULL,
  last_login_at timestamptz NOT NULL
);
CREATE INDEX premium_users_invite_idx ON premium_users (invite_id, seq);

-- Rate-limit counters: one fixed window per key, counted by one upsert.
CREATE TABLE rate_limits (
  key      text        PRIMARY KEY,
  count    integer     NOT NULL,
  reset_at timestamptz NOT NULL
);
CREATE INDEX rate_limits_reset_idx ON rate_limits (reset_at);

-- Alert subscriptions: one per (address in any case, source, kind).
CREATE TABLE alert_subscriptions (
  seq          bigserial   NOT NULL,
  id           text        PRIMARY KEY,
  email        text        NOT NULL,
  source_id    integer     NOT NULL,
  kind         text        NOT NULL CHECK (kind IN ('below-base', 'incident', 'stale')),
  created_at   timestamptz NOT NULL,
  confirmed_at timestamptz
);
CREATE UNIQUE INDEX alert_subscriptions_key ON alert_subscriptions (lower(email), source_id, kind);

-- The ledger of alerts: a row is written before the e-mail is sent, at most once per
-- (subscription, crossing); sent_at stays null until it was sent (retried after a crash).
CREATE TABLE alert_deliveries (
  subscription_id text        NOT NULL,
  crossing        text        NOT NULL,
  recorded_at     timestamptz NOT NULL,
  sent_at         timestamptz,
  PRIMARY KEY (subscription_id, crossing)
);
CREATE INDEX alert_deliveries_unsent_idx ON alert_deliveries (recorded_at) WHERE sent_at IS NULL;
