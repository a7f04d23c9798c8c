-- The remotes' releases with the user data in PostgreSQL (packages/site-server/src/releases/
-- store-pg.ts, docs/deploy.md "Releasing a remote"). `remote_release_registry` is one row: the
-- registry document (each remote's live release, canary, previous releases, records, page loads
-- and error counts, the same JSON as the file store's registry.json) and a version raised by every
-- change. A release, a rollback, a promotion and an automatic rollback each lock the row, change
-- the document and raise the version in one transaction; every site server polls the version once
-- a second and, when it changed, writes the releases it does not have to its own data directory
-- before serving them. `remote_release_files` holds each release's files (a gzipped JSON object
-- of path → base64 contents), deleted with the release when it is no longer kept.
CREATE TABLE remote_release_registry (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  version   bigint  NOT NULL,
  registry  jsonb   NOT NULL
);
CREATE TABLE remote_release_files (
  remote     text        NOT NULL,
  id         text        NOT NULL,
  files      bytea       NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (remote, id)
);
