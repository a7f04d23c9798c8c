/**
 * Operator command: creates a premium invite code, stores only its scrypt hash in invites.json and
 * prints the plain code once. A running server sees the new code on its next login attempt.
 *
 *   pnpm --filter @yield/api invite:create                               # random code, 1 use, no expiry
 *   pnpm --filter @yield/api invite:create -- --max-uses 25 --expires-in-days 14 --note "Launch partners"
 *   DATA_DIR=/tmp/data pnpm --filter @yield/api invite:create -- --code E2E-CODE-123 --max-uses 100
 *
 * With DATABASE_URL set the code goes into PostgreSQL, where every API process sees it at once.
 */
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../src/platform/config.ts';
import { createInvite, findInvite } from '../src/modules/premium/invite-codes.ts';
import type { InviteRecord } from '../src/modules/premium/schemas.ts';
import type { PremiumStore } from '../src/modules/premium/store.ts';
import { runAsCommand, type CliResult } from './cli.ts';
import { openInviteFiles, withInviteStore, type InvitePlace } from './invite-store.ts';

const USAGE = `Usage: invite:create [--code CODE] [--max-uses N | --unlimited] [--expires-in-days N | --expires-at ISO-DATE] [--note TEXT] [--data-dir DIR]

  --code             use this code instead of a random one (6-128 characters, case-insensitive)
  --max-uses         how many logins the code allows (default 1)
  --unlimited        no use limit
  --expires-in-days  the code stops working after N days
  --expires-at       the code stops working at this date/time (e.g. 2026-12-31 or 2026-12-31T12:00:00Z);
                     alias --expires
  --note             free text kept next to the hash (who the code was for)
  --data-dir         data directory (default: $DATA_DIR, else api/data)

With DATABASE_URL set, the code is stored in that PostgreSQL database instead.`;

export async function runCreateInvite(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  now = new Date(),
): Promise<CliResult> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv.filter((a) => a !== '--'),
      options: {
        code: { type: 'string' },
        'max-uses': { type: 'string' },
        unlimited: { type: 'boolean' },
        'expires-in-days': { type: 'string' },
        'expires-at': { type: 'string' },
        // Alias: scripts tend to write --expires.
        expires: { type: 'string' },
        note: { type: 'string' },
        'data-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    return { exitCode: 2, output: `${(err as Error).message}\n\n${USAGE}` };
  }
  if (values.help) return { exitCode: 0, output: USAGE };

  let maxUses: number | null = 1;
  if (values.unlimited) maxUses = null;
  if (values['max-uses'] !== undefined) {
    const n = Number(values['max-uses']);
    if (!Number.isInteger(n) || n < 1)
      return { exitCode: 2, output: `--max-uses must be a whole number of at least 1\n\n${USAGE}` };
    maxUses = n;
  }
  let expiresAt: Date | null = null;
  if (values['expires-in-days'] !== undefined) {
    const days = Number(values['expires-in-days']);
    if (!(days > 0))
      return { exitCode: 2, output: `--expires-in-days must be a positive number\n\n${USAGE}` };
    expiresAt = new Date(now.getTime() + days * 86_400_000);
  } else if ((values['expires-at'] ?? values.expires) !== undefined) {
    const at = new Date((values['expires-at'] ?? values.expires)!);
    if (Number.isNaN(at.getTime()))
      return { exitCode: 2, output: `--expires-at must be a date, e.g. 2026-12-31\n\n${USAGE}` };
    // A date in the past is allowed (it makes a code that is refused as expired, useful to
    // check that path), but said out loud.
    expiresAt = at;
  }

  let config: Config;
  try {
    config = loadConfig(env, ['invite:create']);
  } catch (err) {
    return { exitCode: 2, output: (err as Error).message };
  }
  return withInviteStore(config, values['data-dir'], (userData, place) =>
    create(
      userData,
      place,
      values.code,
      { maxUses, expiresAt, note: values.note, now },
      async (invite) => {
        if (place.dataDir !== null) await ensureSurvives(place.dataDir, invite);
      },
    ),
  );
}

/** Creates the code in `userData`; `place` names the store in the output. */
async function create(
  userData: PremiumStore,
  place: InvitePlace,
  wanted: string | undefined,
  options: { maxUses: number | null; expiresAt: Date | null; note: string | undefined; now: Date },
  afterCreate: (invite: InviteRecord) => Promise<void> = async () => undefined,
): Promise<CliResult> {
  const { maxUses, expiresAt, now } = options;
  if (wanted !== undefined && (await findInvite(userData, wanted))) {
    // Idempotent for scripted setups (e2e): the code already works, so there is nothing to do.
    return {
      exitCode: 0,
      output: `Invite code ${wanted} already exists in ${place.name}; nothing changed.`,
    };
  }
  try {
    const { id, code, invite } = await createInvite(userData, {
      code: wanted,
      maxUses,
      expiresAt,
      note: options.note,
      now,
    });
    await afterCreate(invite);
    const lines = [
      `Invite code created (id ${id}):`,
      '',
      `  ${code}`,
      '',
      `  max uses: ${maxUses ?? 'unlimited'}`,
      `  expires:  ${expiresAt ? expiresAt.toISOString() : 'never'}${expiresAt && expiresAt <= now ? ' (already expired: every login with it is refused)' : ''}`,
      `  stored:   ${place.stored} (hashed; this is the only time the code is shown)`,
    ];
    return { exitCode: 0, output: lines.join('\n') };
  } catch (err) {
    return { exitCode: 1, output: (err as Error).message };
  }
}

/**
 * A running server re-reads invites.json before it folds its journal into it, but a fold that
 * started in the same milliseconds as our write can still replace the file without our record
 * (there is no lock across processes). Check a moment later and put the record back if it is gone.
 */
async function ensureSurvives(
  dataDir: string,
  invite: InviteRecord,
  attempts = 3,
  delayMs = 300,
): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    await new Promise((r) => setTimeout(r, delayMs));
    const { userData } = await openInviteFiles(dataDir);
    if ((await userData.listInvites()).some((x) => x.id === invite.id)) return;
    await userData.createInvite(invite);
  }
}

runAsCommand(import.meta.url, (argv) => runCreateInvite(argv));
