#!/usr/bin/env node
/**
 * Writes the numeric strategy page's local static list from the
 * shipped sample data, through the running API, so its figures trace back to api/data and the
 * ra30-v1 method instead of being typed in by hand.
 *
 *   pnpm --filter @yield/api dev            # or any running API
 *   node mfe-strategy/scripts/generate-static-strategies.mjs [http://localhost:8787]
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const api = (process.argv[2] ?? process.env.API_URL ?? 'http://localhost:8787').replace(/\/$/, '');
const out = fileURLToPath(
  new URL('../src/features/numeric/static-strategies.json', import.meta.url),
);
/** Only this id is active on the numeric page; the others render as disabled. */
const ACTIVE_ID = 3;
const HISTORY_RANGE = '90D';

async function get(path) {
  const res = await fetch(`${api}${path}`);
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

const isoDate = (ms) => new Date(ms).toISOString().slice(0, 10);
const round = (value, digits) => Math.round(value * 10 ** digits) / 10 ** digits;

const [settings, sources] = await Promise.all([get('/api/settings'), get('/api/sources')]);
const strategies = [];
for (const source of sources.filter((s) => !s.isBaseRate)) {
  const history = await get(`/api/history?id=${source.id}&range=${HISTORY_RANGE}`);
  const active = source.id === ACTIVE_ID;
  strategies.push({
    id: source.id,
    name: source.name,
    description: source.description ?? `${source.yield_category}: ${source.yield_type}.`,
    apr: round(history.lastApr, 4),
    riskAdjustedApr: round(history.lastRaApr, 4),
    tvl: Math.round(history.lastTvl),
    // The count of the data's newest day; a series without one (an imported feed) stays null,
    // shown as such rather than invented.
    holders: history.lastHolders ?? null,
    aprHistory: active
      ? history.data.map((p) => ({ date: isoDate(p.timestamp), value: round(p.apr, 4) }))
      : [],
    tvlHistory: active
      ? history.data.map((p) => ({ date: isoDate(p.timestamp), value: Math.round(p.tvl) }))
      : [],
  });
}

const file = {
  sample: settings.data.sample,
  asOf: settings.data.asOf,
  method: 'ra30-v1',
  generatedFrom: `GET /api/sources and /api/history?range=${HISTORY_RANGE} (api/data)`,
  strategies,
};
await writeFile(out, JSON.stringify(file, null, 1) + '\n');
console.log(`wrote ${strategies.length} strategies (as of ${file.asOf}) to ${out}`);
