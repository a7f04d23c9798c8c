-- Premium sign-in links work once (api/src/modules/premium/sign-in.ts): the id signed into each
-- link used, kept until the link has expired. The first INSERT of an id wins (ON CONFLICT DO
-- NOTHING), whichever process opens it; expired rows are deleted by the next use of any link.
-- Their e-mails are counted in `confirmation_mails` under the scope `premium-sign-in`.
CREATE TABLE premium_sign_in_links (
  id         text        PRIMARY KEY,
  user_id    text        NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at    timestamptz NOT NULL
);
CREATE INDEX premium_sign_in_links_expires_idx ON premium_sign_in_links (expires_at);
