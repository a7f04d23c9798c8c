/**
 * Operator commands of the PostgreSQL user-data store (DATABASE_URL, docs/deploy.md):
 *
 *   pnpm --filter @yield/api db:migrate        # applies pending migrations (the API also does at start)
 *   pnpm --filter @yield/api db:import-files   # copies mailing-list.json, invites.json, users.json, alerts.json in
 *   pnpm --filter @yield/api db:export-files   # writes them back from the database (moving back to files)
 *
 * import-files is safe to rerun: addresses, invites, users, alert subscriptions and deliveries of
 * the alert ledger already in the database are kept (an invite's use count only rises to the
 * file's, a delivery sent in the file is marked sent), so nothing is added twice and no alert is
 * sent again. Run it with the file-store server stopped (its last changes are in user-data.log
 * until it stops; the command replays that journal too). export-files replaces the four files, so
 * stop the server that owns them first.
 *
 * Both also move the pool histories (DATA_DIR/pool-history/<xx>/<pool>.ndjson <-> the table
 * pool_history) and the backfill's 24-hour memory (pool-history/backfill-tries.ndjson <->
 * backfill_tries): import keeps the days the table holds (a rerun adds nothing), export replaces
 * each pool's file with the table's rows.
 *
 * And the yield files (settings.json, sources.json, history.json, …: the published data): import
 * checks each as data:publish does and publishes it as version 1, leaves it when the same body is
 * published, and refuses the whole command (nothing imported) when a file is invalid or differs
 * from the fleet's published version, unless --replace-published (then it is published as the
 * next version). export writes the published versions as the directory's files.
 */
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../src/composition/data-files.ts';
import { FileUserDataStore, JOURNAL_NAME } from '../src/composition/file-user-data.ts';
import { PRIVATE_FILE_MODE, writeFileDurably } from '../src/platform/files/durable.ts';
import { jsonFileText } from '../src/platform/files/json-text.ts';
import { migrate } from '../src/platform/pg/migrate.ts';
import { PgUserDataStore } from '../src/composition/pg-user-data.ts';
import { UserDataUnavailableError } from '../src/composition/user-data.ts';
import {
  exportPoolHistories,
  importPoolHistories,
  type PoolHistoriesMoved,
} from '../src/composition/pg-transfer.ts';
import { loadConfig, type Config } from '../src/platform/config.ts';
import { silentLogger } from '../src/platform/logger.ts';
import {
  exportPublishedFiles,
  planPublishedFiles,
  type PublishedFilesPlan,
} from '../src/composition/published-transfer.ts';
import {
  PgPublishedDocuments,
  PublishConflictError,
} from '../src/platform/pg/published-documents.ts';
import { runAsCommand, type CliResult } from './cli.ts';

const USAGE = `Usage: db.ts migrate | import-files | export-files [--data-dir DIR] [--database-url URL]
             [--replace-published]

  migrate        apply the pending SQL migrations (api/src/platform/pg/migrations)
  import-files   copy the mailing list, invites, premium users, alert subscriptions and the ledger
                 of sent alerts of the data directory into the database (safe to rerun: nothing
                 is added twice), the pool histories and the backfill's tries, and publish the
                 yield files (settings.json, sources.json, history.json, ...) where nothing or the
                 same is published; a file that differs from the published one refuses the whole
                 import (nothing imported)
  export-files   write mailing-list.json, invites.json, users.json and alerts.json from the
                 database, the pool histories and the backfill's tries, and the published files
  --data-dir     data directory (default: $DATA_DIR, else api/data)
  --database-url PostgreSQL URL (default: $DATABASE_URL)
  --replace-published  import-files: publish the directory's yield files as new versions over
                 published ones that differ`;

export async function runDb(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<CliResult> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.filter((a) => a !== '--'),
      allowPositionals: true,
      options: {
        'data-dir': { type: 'string' },
        'database-url': { type: 'string' },
        'replace-published': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    return { exitCode: 2, output: `${(err as Error).message}\n\n${USAGE}` };
  }
  const { values, positionals } = parsed;
  const command = positionals[0];
  if (values.help) return { exitCode: 0, output: USAGE };
  if (!['migrate', 'import-files', 'export-files'].includes(command ?? ''))
    return { exitCode: 2, output: USAGE };
  let config: Config;
  try {
    config = loadConfig(env, ['db']);
  } catch (err) {
    return { exitCode: 2, output: (err as Error).message };
  }
  const url = values['database-url'] ?? config.DATABASE_URL;
  if (!url) return { exitCode: 2, output: `Set DATABASE_URL (or --database-url).\n\n${USAGE}` };
  const dataDir = path.resolve(values['data-dir'] ?? config.DATA_DIR);

  const db = new PgUserDataStore({ connectionString: url, logger: silentLogger, migrate: false });
  try {
    if (command === 'migrate') {
      const applied = await migrate(db.pool, silentLogger);
      return {
        exitCode: 0,
        output: applied.length
          ? `Applied: ${applied.join(', ')}`
          : 'The database schema is up to date.',
      };
    }
    await migrate(db.pool, silentLogger);
    if (command === 'import-files')
      return await importFiles(db, dataDir, values['replace-published'] === true);
    return await exportFiles(db, dataDir);
  } catch (err) {
    const message =
      err instanceof UserDataUnavailableError || (err as { code?: string }).code === 'ECONNREFUSED'
        ? `The database cannot be reached: ${(err as Error).message}`
        : (err as Error).message;
    return { exitCode: 1, output: message };
  } finally {
    await db.close();
  }
}

/** The lines of the yield files' report, by name. */
const publishedReport = (plan: PublishedFilesPlan) =>
  [...plan.lines.keys()].sort().map((name) => `    ${plan.lines.get(name)}`);

/** The refusal of an import whose yield files are invalid or differ from the published ones. */
function refusal(plan: PublishedFilesPlan, dataDir: string): CliResult | null {
  if (plan.invalid.length === 0 && plan.differ.length === 0) return null;
  const why = [
    ...(plan.invalid.length ? [`fix ${plan.invalid.join(', ')}`] : []),
    ...(plan.differ.length
      ? [
          `${plan.differ.join(', ')} differ from the fleet's published data: keep the fleet's ` +
            '(data:pull writes it) or replace it with --replace-published',
        ]
      : []),
  ];
  return {
    exitCode: 1,
    output: [
      `Published data of ${dataDir}:`,
      ...publishedReport(plan),
      `Nothing imported: ${why.join('; ')}.`,
    ].join('\n'),
  };
}

/** Publishes the plan's changes, all at once; the refusal when one moved since it was read. */
async function publishPlan(
  docs: PgPublishedDocuments,
  plan: PublishedFilesPlan,
): Promise<CliResult | null> {
  if (plan.changes.length === 0) return null;
  try {
    await docs.publish(plan.changes, `db:import-files@${os.hostname()}`);
    return null;
  } catch (err) {
    if (!(err instanceof PublishConflictError)) throw err;
    return {
      exitCode: 1,
      output: `The user data and pool histories were imported; the yield files were not published: ${err.message} (published meanwhile). Run the command again.`,
    };
  }
}

async function importFiles(
  db: PgUserDataStore,
  dataDir: string,
  replace: boolean,
): Promise<CliResult> {
  // The yield files first: a refusal leaves the database as it was.
  const docs = new PgPublishedDocuments(db.connection);
  const plan = await planPublishedFiles(docs, dataDir, replace);
  const refused = refusal(plan, dataDir);
  if (refused) return refused;
  // The journal is replayed as the server does, so sign-ups not yet folded into the files come
  // along; read only (no lock, nothing written), so this works while a server owns the directory.
  const store = openStore(dataDir, silentLogger);
  const files = await FileUserDataStore.open(store, {
    logger: silentLogger,
    owner: false,
    replay: true,
  });
  await store.loadAll();
  try {
    const status = store.status();
    for (const file of ['mailing-list.json', 'invites.json', 'users.json', 'alerts.json']) {
      if (status[file]?.error)
        return { exitCode: 1, output: `Cannot read ${file}: ${status[file].error}` };
    }
    const data = {
      mailingList: store.get('mailingList') ?? { entries: [] },
      invites: store.get('invites') ?? { invites: [] },
      users: store.get('users') ?? { users: [] },
      alerts: store.get('alerts') ?? { subscriptions: [], deliveries: [] },
    };
    const added = await db.importFiles(data);
    const histories = await importPoolHistories(db.connection, dataDir);
    const conflict = await publishPlan(docs, plan);
    if (conflict) return conflict;
    return {
      exitCode: 0,
      output: [
        `Imported from ${dataDir}:`,
        `  mailing list: ${added.subscribers} added (${data.mailingList.entries.length} in the file)`,
        `  invites:      ${added.invites} added (${data.invites.invites.length} in the file)`,
        `  users:        ${added.users} added (${data.users.users.length} in the file)`,
        `  alerts:       ${added.alertSubscriptions} added (${data.alerts.subscriptions.length} in the file)`,
        `  alert ledger: ${added.alertDeliveries} added (${data.alerts.deliveries.length} in the file)`,
        historiesLine('pool histories:', histories, 'added'),
        '  published data:',
        ...publishedReport(plan),
      ].join('\n'),
    };
  } finally {
    await files.close();
  }
}

async function exportFiles(db: PgUserDataStore, dataDir: string): Promise<CliResult> {
  // A journal would be replayed on top of the written files (and count invite uses twice).
  const journal = (await readdir(dataDir)).filter((f) => f.startsWith(`${JOURNAL_NAME}.`));
  if (journal.length > 0) {
    return {
      exitCode: 1,
      output: `${dataDir} holds a journal of user data (${journal.join(', ')}): start and stop the file-store server once to fold it, then export again.`,
    };
  }
  const data = await db.exportFiles();
  const histories = await exportPoolHistories(db.connection, dataDir);
  const published = await exportPublishedFiles(new PgPublishedDocuments(db.connection), dataDir);
  await writeFileDurably(
    path.join(dataDir, 'mailing-list.json'),
    jsonFileText(data.mailingList),
    PRIVATE_FILE_MODE,
  );
  await writeFileDurably(
    path.join(dataDir, 'invites.json'),
    jsonFileText(data.invites),
    PRIVATE_FILE_MODE,
  );
  await writeFileDurably(
    path.join(dataDir, 'users.json'),
    jsonFileText(data.users),
    PRIVATE_FILE_MODE,
  );
  await writeFileDurably(
    path.join(dataDir, 'alerts.json'),
    jsonFileText(data.alerts),
    PRIVATE_FILE_MODE,
  );
  return {
    exitCode: 0,
    output: [
      `Wrote to ${dataDir}:`,
      `  mailing-list.json: ${data.mailingList.entries.length} addresses`,
      `  invites.json:      ${data.invites.invites.length} invites`,
      `  users.json:        ${data.users.users.length} users`,
      `  alerts.json:       ${data.alerts.subscriptions.length} alert subscriptions, ${data.alerts.deliveries.length} entries of the alert ledger`,
      historiesLine('pool-history/:    ', histories, 'written'),
      '  published data:',
      ...published.map((line) => `    ${line}`),
    ].join('\n'),
  };
}

/** The pool histories' line of the commands' report. */
function historiesLine(label: string, moved: PoolHistoriesMoved, verb: string): string {
  return `  ${label} ${moved.pools} pools, ${moved.days} days ${verb}, ${moved.tries} backfill tries`;
}

runAsCommand(import.meta.url, (argv) => runDb(argv));
