/**
 * The e2e web server: the production site server (real API + the built shell and remotes) on a
 * fresh copy of the shipped data, so tests never write into api/data. `E2E_DATA_FROM` copies
 * another data directory instead (tests/live-data.spec.ts serves imported data that way).
 */
import fs from 'node:fs';
import path from 'node:path';
import { cachedBody, createApp, createDeps, isInstallationFile, settingsBody } from '@yield/api';
import { createSiteServer } from '@yield/site-server';
import { writeE2eCosts } from '../fixtures/costs.ts';
import { E2E_DATA_DIR, E2E_PORT, WORKSPACE_ROOT } from './e2e-env.ts';

fs.rmSync(E2E_DATA_DIR, { recursive: true, force: true });
fs.mkdirSync(path.dirname(E2E_DATA_DIR), { recursive: true });
fs.cpSync(process.env.E2E_DATA_FROM ?? path.join(WORKSPACE_ROOT, 'api', 'data'), E2E_DATA_DIR, {
  recursive: true,
  // A local server's secret, user data, journal and lock stay local; the e2e server makes its own.
  filter: (source) => !isInstallationFile(path.basename(source)),
});
// The shipped data has no costs (an import reads them from the chain): the pages' net figures
// are shown for the costs of fixtures/costs.ts. Imported data keeps its own.
if (!process.env.E2E_DATA_FROM) writeE2eCosts(E2E_DATA_DIR);
process.env.DATA_DIR = E2E_DATA_DIR;

// Alert e-mails go to <data dir>/outbox, never to a real SMTP server (tests/alerts.spec.ts reads them).
const deps = await createDeps({ dataDir: E2E_DATA_DIR, smtpUrl: '' });
const server = createSiteServer({
  rootDir: WORKSPACE_ROOT,
  apiHandler: createApp(deps).callback(),
  // As in production: pages arrive with their server-rendered first paint.
  settings: () => settingsBody(deps),
  data: (apiPath) => cachedBody(deps, apiPath),
});
server.listen(E2E_PORT, () => console.log(`e2e site on http://localhost:${E2E_PORT}`));
