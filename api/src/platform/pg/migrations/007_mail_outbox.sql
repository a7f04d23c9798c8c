-- Every outgoing e-mail with the user data in PostgreSQL (confirmations of alerts and of the
-- mailing list, premium sign-in links, alerts): written here first, then sent by whichever process drains the table
-- (api/src/modules/alerts/pg-outbox.ts). A process claims the oldest due row with FOR UPDATE SKIP
-- LOCKED in a transaction held while it sends, and before committing marks it sent, or counts the
-- try and schedules the next (`next_attempt_at`), or gives it up (`failed_at`) after the last. A
-- claim of a process that died is rolled back by the server, so another process sends the row.
-- `kind` names the e-mail in the log. An alert's row names its delivery in `alert_deliveries`
-- (one row per subscription and crossing), marked sent in the same transaction as the row. The
-- message holds an address: personal data, deleted 7 days after it was sent or given up.
CREATE TABLE mail_outbox (
  id              bigserial   PRIMARY KEY,
  kind            text        NOT NULL,
  message         jsonb       NOT NULL,
  created_at      timestamptz NOT NULL,
  attempts        integer     NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  sent_at         timestamptz,
  failed_at       timestamptz,
  last_error      text,
  alert_subscription_id text,
  alert_crossing  text,
  UNIQUE (alert_subscription_id, alert_crossing)
);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (id)
  WHERE sent_at IS NULL AND failed_at IS NULL;
