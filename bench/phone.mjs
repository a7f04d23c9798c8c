#!/usr/bin/env node
/**
 * Phone speed of the main pages against a static page of the same table, in one run.
 *   node bench/phone.mjs [base-url] [--runs N] [--pages /a,/b]
 * Builds the reference page from the site's own API (`/api/settings`, `/api/sources`,
 * `/api/strategies`: title, description and one row per source with the comparison's columns,
 * plain HTML, no JavaScript), serves it on a local port, then runs Lighthouse mobile (default
 * throttling) on the five main pages and the reference, round after round (each round measures
 * every page once, so a change in the machine's load touches all of them alike), and prints the
 * median of N runs: performance, FCP, LCP, TBT, CLS and LCP / the reference's LCP, then the
 * scripts that took the most main-thread time on each page.
 */
import http from 'node:http';
import os from 'node:os';
import { median, warmUp, withChromium } from './lighthouse-run.mjs';

const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const runs = Number(option('--runs') ?? 3);
const base = (
  args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ??
  'http://localhost:4000'
).replace(/\/$/, '');
const pages = (option('--pages') ?? '/,/options,/options/lido,/scanner,/compare').split(',');

const getJson = async (path) => {
  const response = await fetch(base + path);
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json();
};

const escapeHtml = (text) =>
  String(text).replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c],
  );

/** The comparison's table as a static page: same rows and columns, no script. */
async function referencePage() {
  const [settings, sources, strategies] = await Promise.all([
    getJson('/api/settings'),
    getJson('/api/sources'),
    getJson('/api/strategies'),
  ]);
  const byId = new Map(strategies.map((s) => [s.id, s]));
  const pct = (value) => (typeof value === 'number' ? `${value.toFixed(2)}%` : '–');
  const usd = (value) =>
    typeof value === 'number'
      ? `$${(value / 1e6).toLocaleString('en-US', { maximumFractionDigits: 1 })}M`
      : '–';
  const rows = sources
    .map((source) => {
      const strategy = byId.get(source.id) ?? {};
      return `<tr><td>${escapeHtml(source.name)}</td><td>${escapeHtml(source.token)}</td><td>${escapeHtml(source.yieldToken)}</td><td>${source.rating}</td><td>${pct(strategy.riskAdjustedYield30d)}</td><td>${pct(strategy.yield30d)}</td><td>${usd(strategy.tvl)}</td><td>${source.safety}</td><td>${source.liquidity}</td><td>${escapeHtml(source.exit?.kind ?? '')}</td></tr>`;
    })
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(settings.siteTitle)} | ${escapeHtml(settings.siteSlogan)}</title>
<meta name="description" content="${escapeHtml(settings.siteDescription)}">
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:16px}
.wrap{overflow-x:auto}table{border-collapse:collapse;width:100%}th,td{padding:8px;border-bottom:1px solid #ddd;text-align:left;white-space:nowrap}</style>
</head><body><main><h1>${escapeHtml(settings.siteHeader)}</h1><p>${escapeHtml(settings.siteDescription)}</p>
<div class="wrap"><table><thead><tr><th>Name</th><th>Token</th><th>Yield Token</th><th>Overall Rating</th><th>Risk-adjusted 30d APR</th><th>30d APR</th><th>TVL</th><th>Safety</th><th>Liquidity</th><th>Exit</th></tr></thead>
<tbody>${rows}</tbody></table></div></main></body></html>`;
}

const html = await referencePage();
const server = http.createServer((request, response) => {
  response.writeHead(request.url === '/' ? 200 : 404, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-cache',
  });
  response.end(request.url === '/' ? html : 'not found');
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const referenceUrl = `http://127.0.0.1:${server.address().port}/`;
const REFERENCE = 'reference (static table)';
// A page given as a whole URL (another build on another port) is measured as is: A/B in one run.
const targets = [
  ...pages.map((p) => [p, /^https?:/.test(p) ? p : base + p]),
  [REFERENCE, referenceUrl],
];

await warmUp(targets.map(([, url]) => url));

const started = new Date();
const load = os.loadavg();
const results = new Map(targets.map(([name]) => [name, []]));
try {
  await withChromium(async (measure) => {
    for (let run = 0; run < runs; run++) {
      for (const [name, url] of targets) {
        try {
          results.get(name).push(await measure(url));
        } catch (error) {
          console.error(`run ${run + 1} of ${name} failed: ${error.message}`);
        }
      }
    }
  });
} finally {
  server.close();
}

const pick = (name, key) => {
  const list = results.get(name);
  return list.length ? median(list.map((r) => r[key])) : NaN;
};
const referenceLcp = pick(REFERENCE, 'lcp');
console.log(
  `Lighthouse mobile, median of ${runs}, ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC, ` +
    `load average ${load.map((l) => l.toFixed(1)).join(' ')} -> ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
);
console.log('| page | perf | FCP | LCP | TBT | CLS | LCP / reference |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const [name] of targets) {
  const lcp = pick(name, 'lcp');
  console.log(
    `| ${name} | ${Math.round(pick(name, 'performance'))} | ${(pick(name, 'fcp') / 1000).toFixed(2)} s | ${(lcp / 1000).toFixed(2)} s | ${Math.round(pick(name, 'tbt'))} ms | ${pick(name, 'cls').toFixed(3)} | ${(lcp / referenceLcp).toFixed(2)}x |`,
  );
}
console.log('\nMain-thread time by script, ms (last run; total / of it script evaluation):');
for (const [name] of targets) {
  const scripts = results.get(name).at(-1)?.scripts ?? [];
  const top = scripts
    .slice(0, 5)
    .map(
      (s) =>
        `${s.url.replace(/^https?:\/\/[^/]+/, '') || s.url} ${Math.round(s.total)}/${Math.round(s.scripting)}`,
    );
  console.log(`- ${name}: ${top.join(', ')}`);
}
console.log('\nLCP element (last run):');
for (const [name] of targets) {
  console.log(`- ${name}: ${results.get(name).at(-1)?.lcpElement.slice(0, 140) ?? ''}`);
}
