-- Double opt-in for the mailing list and caps on confirmation e-mails (api/src/composition/pg-user-data.ts).

-- A sign-up counts once its address confirmed it (the e-mailed link names `id`). Rows written
-- before confirmations existed count as confirmed: they get their creation time.
ALTER TABLE mailing_list
  ADD COLUMN id           text,
  ADD COLUMN confirmed_at timestamptz,
  ADD COLUMN mailed_at    timestamptz;
UPDATE mailing_list SET confirmed_at = created_at;
CREATE UNIQUE INDEX mailing_list_id_key ON mailing_list (id);
CREATE INDEX mailing_list_unconfirmed_idx ON mailing_list (COALESCE(mailed_at, created_at))
  WHERE confirmed_at IS NULL;

-- When the last confirmation e-mail of a subscription was sent (an unconfirmed one is purged
-- 7 days later).
ALTER TABLE alert_subscriptions ADD COLUMN mailed_at timestamptz;
CREATE INDEX alert_subscriptions_unconfirmed_idx
  ON alert_subscriptions (COALESCE(mailed_at, created_at)) WHERE confirmed_at IS NULL;

-- The confirmation e-mails of the last 24 hours, by lower-cased address and scope
-- (`alert:<sourceId>:<kind>`, `mailing-list`): what the caps count. A request takes a
-- transaction-level advisory lock on its address, so two processes never both pass a cap.
CREATE TABLE confirmation_mails (
  email   text        NOT NULL,
  scope   text        NOT NULL,
  sent_at timestamptz NOT NULL
);
CREATE INDEX confirmation_mails_email_idx ON confirmation_mails (email, sent_at);
