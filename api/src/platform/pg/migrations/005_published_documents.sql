-- Published data (api/src/platform/pg/published-documents.ts): the yield files every API process
-- serves when DATABASE_URL is set, one row per file name with its current version, and every
-- version ever published (restores, audits). A publish is one transaction: the row is locked,
-- refused when its version moved since the publisher read it (compare-and-swap), else the next
-- version is written and `published_documents` is notified with the file name.
CREATE TABLE published_documents (
  name         text        PRIMARY KEY,
  version      bigint      NOT NULL CHECK (version >= 1),
  body         text        NOT NULL,
  sha256       text        NOT NULL,
  published_at timestamptz NOT NULL,
  published_by text        NOT NULL
);
CREATE TABLE published_document_versions (
  name         text        NOT NULL,
  version      bigint      NOT NULL,
  body         text        NOT NULL,
  sha256       text        NOT NULL,
  published_at timestamptz NOT NULL,
  published_by text        NOT NULL,
  PRIMARY KEY (name, version)
);
