/**
 * Published data in PostgreSQL (migration 005): the yield files every API process serves when
 * DATABASE_URL is set, as versioned documents. A publish is one transaction over all the documents
 * it names: each row is locked (SELECT ... FOR UPDATE), the whole publish is refused when any
 * version moved since the publisher read it (compare-and-swap), else each document gets its next
 * version, the version is kept in `published_document_versions`, and `published_documents` is
 * notified with the names (readers also poll the versions: a notification can be missed).
 */
import type { PoolClient } from 'pg';
import { sha256 } from '../files/json-text.ts';
import { LOCK_NAMESPACE } from './migrate.ts';
import type { PgConnection } from './connection.ts';

/** Advisory lock of the first publish (two int4: the product's namespace, then 5). */
const SEED_LOCK = [LOCK_NAMESPACE, 5];
export const PUBLISHED_CHANNEL = 'published_documents';

export interface PublishedDocument {
  name: string;
  version: number;
  body: string;
  sha256: string;
  publishedAt: string;
}

export interface DocumentChange {
  name: string;
  body: string;
  /** The version the change was made on; 0 for a document never published. */
  basedOn: number;
}

/** A publish refused because documents moved since they were read: nothing was published. */
export class PublishConflictError extends Error {
  constructor(readonly conflicts: { name: string; basedOn: number; current: number }[]) {
    super(
      conflicts
        .map(
          (c) =>
            `${c.name}: published version is v${c.current}, the change was made on v${c.basedOn}`,
        )
        .join('; '),
    );
    this.name = 'PublishConflictError';
  }
}

interface DocumentRow {
  name: string;
  version: string;
  body: string;
  sha256: string;
  published_at: Date;
}

const toDocument = (r: DocumentRow): PublishedDocument => ({
  name: r.name,
  version: Number(r.version),
  body: r.body,
  sha256: r.sha256,
  publishedAt: r.published_at.toISOString(),
});

async function write(client: PoolClient, name: string, version: number, body: string, by: string) {
  const values = [name, version, body, sha256(body), by];
  await client.query(
    `INSERT INTO published_documents (name, version, body, sha256, published_at, published_by)
     VALUES ($1, $2, $3, $4, now(), $5)
     ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version, body = EXCLUDED.body,
       sha256 = EXCLUDED.sha256, published_at = EXCLUDED.published_at,
       published_by = EXCLUDED.published_by`,
    values,
  );
  await client.query(
    `INSERT INTO published_document_versions (name, version, body, sha256, published_at, published_by)
     VALUES ($1, $2, $3, $4, now(), $5)`,
    values,
  );
}

export class PgPublishedDocuments {
  constructor(private readonly db: PgConnection) {}

  /** Name -> current version of every published document. */
  async versions(): Promise<Map<string, number>> {
    const { rows } = await this.db.query<{ name: string; version: string }>(
      'SELECT name, version FROM published_documents',
    );
    return new Map(rows.map((r) => [r.name, Number(r.version)]));
  }

  /** The current version of the documents named (all when no names are given). */
  async read(names?: string[]): Promise<PublishedDocument[]> {
    const { rows } = names
      ? await this.db.query<DocumentRow>(
          'SELECT name, version, body, sha256, published_at FROM published_documents WHERE name = ANY($1)',
          [names],
        )
      : await this.db.query<DocumentRow>(
          'SELECT name, version, body, sha256, published_at FROM published_documents',
        );
    return rows.map(toDocument);
  }

  /**
   * Publishes as version 1 each of `docs` not published yet (the first process to start with a
   * database publishes its files). Serialised by an advisory lock: of processes starting at once,
   * the first publishes all its files and the others find them published. Returns the names
   * published.
   */
  seed(docs: { name: string; body: string }[], by: string): Promise<string[]> {
    return this.db.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1, $2)', SEED_LOCK);
      const { rows } = await client.query<{ name: string }>('SELECT name FROM published_documents');
      const present = new Set(rows.map((r) => r.name));
      const missing = docs.filter((d) => !present.has(d.name));
      for (const d of missing) await write(client, d.name, 1, d.body, by);
      if (missing.length > 0) {
        await client.query('SELECT pg_notify($1, $2)', [
          PUBLISHED_CHANNEL,
          missing.map((d) => d.name).join(','),
        ]);
      }
      return missing.map((d) => d.name);
    });
  }

  /**
   * Publishes every change in one transaction, or none of them (PublishConflictError when a
   * document's version is not the one its change was based on). Returns name -> new version.
   */
  publish(changes: DocumentChange[], by: string): Promise<Map<string, number>> {
    const sorted = [...changes].sort((a, b) => a.name.localeCompare(b.name));
    return this.db.transaction(async (client) => {
      const conflicts: { name: string; basedOn: number; current: number }[] = [];
      // Rows locked in name order: concurrent publishers never deadlock. A document never
      // published has no row to lock: the advisory lock of the first publish covers it.
      await client.query('SELECT pg_advisory_xact_lock($1, $2)', SEED_LOCK);
      for (const c of sorted) {
        const { rows } = await client.query<{ version: string }>(
          'SELECT version FROM published_documents WHERE name = $1 FOR UPDATE',
          [c.name],
        );
        const current = rows[0] ? Number(rows[0].version) : 0;
        if (current !== c.basedOn) conflicts.push({ name: c.name, basedOn: c.basedOn, current });
      }
      if (conflicts.length > 0) throw new PublishConflictError(conflicts);
      const out = new Map<string, number>();
      for (const c of sorted) {
        await write(client, c.name, c.basedOn + 1, c.body, by);
        out.set(c.name, c.basedOn + 1);
      }
      if (sorted.length > 0) {
        await client.query('SELECT pg_notify($1, $2)', [
          PUBLISHED_CHANNEL,
          sorted.map((c) => c.name).join(','),
        ]);
      }
      return out;
    });
  }
}
