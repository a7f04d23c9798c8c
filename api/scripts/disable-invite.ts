/**
 * Operator command: disables a premium invite code, named by its id (printed by invite:create,
 * the `id` in invites.json) or by the code itself. A disabled code lets nobody in any more, and
 * every token of its users is refused within a minute (the API re-checks a token's user and
 * invite at most 60 s after the last check), on every process, without a restart.
 *
 *   pnpm --filter @yield/api invite:disable -- --id 5d0c...
 *   pnpm --filter @yield/api invite:disable -- --code YIELD-ABCD-EFGH-JKLM
 *
 * With DATABASE_URL set the code is disabled in PostgreSQL, else in DATA_DIR/invites.json (the
 * same edit as setting `"disabled": true` by hand).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../src/platform/config.ts';
import { findInvite } from '../src/modules/premium/invite-codes.ts';
import type { PremiumStore } from '../src/modules/premium/store.ts';
import { runAsCommand, type CliResult } from './cli.ts';
import { openInviteFiles, withInviteStore } from './invite-store.ts';

const USAGE = `Usage: invite:disable (--id ID | --code CODE) [--data-dir DIR]

  --id        the invite's id (printed by invite:create; "id" in invites.json)
  --code      the invite code itself (case and surrounding spaces do not matter)
  --data-dir  data directory (default: $DATA_DIR, else api/data)

Nobody can log in with the code any more, and the tokens of its users are refused within 60 s.
With DATABASE_URL set, the code is disabled in that PostgreSQL database instead.`;

export async function runDisableInvite(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<CliResult> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv.filter((a) => a !== '--'),
      options: {
        id: { type: 'string' },
        code: { type: 'string' },
        'data-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    return { exitCode: 2, output: `${(err as Error).message}\n\n${USAGE}` };
  }
  if (values.help) return { exitCode: 0, output: USAGE };
  if ((values.id === undefined) === (values.code === undefined))
    return { exitCode: 2, output: `Give either --id or --code\n\n${USAGE}` };
  let config: Config;
  try {
    config = loadConfig(env, ['invite:disable']);
  } catch (err) {
    return { exitCode: 2, output: (err as Error).message };
  }

  const result = await withInviteStore(config, values['data-dir'], (userData, place) =>
    disable(userData, place.stored, values.id, values.code),
  );
  const dataDir = values['data-dir'] ?? config.DATA_DIR;
  if (!config.DATABASE_URL && result.exitCode === 0 && 'id' in result && result.id)
    await ensureStaysDisabled(path.resolve(dataDir), result.id);
  return result;
}

async function disable(
  userData: PremiumStore,
  place: string,
  id: string | undefined,
  code: string | undefined,
): Promise<CliResult & { id?: string }> {
  let inviteId = id;
  if (code !== undefined) {
    const invite = await findInvite(userData, code);
    if (!invite)
      return {
        exitCode: 1,
        output: `No enabled invite has that code in ${place}; nothing changed.`,
      };
    inviteId = invite.id;
  }
  if (!(await userData.disableInvite(inviteId!)))
    return {
      exitCode: 1,
      output: `No invite has the id ${inviteId} in ${place}; nothing changed.`,
    };
  return {
    exitCode: 0,
    id: inviteId!,
    output: [
      `Invite ${inviteId} disabled in ${place}.`,
      'Nobody can log in with it any more; the tokens of its users are refused within 60 s.',
    ].join('\n'),
  };
}

/**
 * A running server re-reads invites.json before it folds its journal into it, but a fold that
 * started in the same milliseconds as our write can still replace the file without our change
 * (there is no lock across processes). Check a moment later and disable it again if needed.
 */
async function ensureStaysDisabled(
  dataDir: string,
  id: string,
  attempts = 3,
  delayMs = 300,
): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    await new Promise((r) => setTimeout(r, delayMs));
    const { store, userData } = await openInviteFiles(dataDir);
    if (store.get('invites')?.invites.find((x) => x.id === id)?.disabled) return;
    await userData.disableInvite(id);
  }
}

runAsCommand(import.meta.url, (argv) => runDisableInvite(argv));
