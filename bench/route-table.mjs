#!/usr/bin/env node
/**
 * Does reading the route table at run time hold the shell's first render back? The shell renders
 * once it has both its scripts (bootstrap and shared libraries) and the route table (remotes.json
 * and every remote's pages.json). This loads each route in Chromium with Lighthouse's mobile
 * conditions (4x CPU slowdown, 150 ms RTT, 1.6 Mbps) and prints, per route, the median time the
 * last pages.json and the last shell script finished downloading: the table costs nothing while
 * it arrives first.
 *   node bench/route-table.mjs [base-url] [--runs N]     (default http://localhost:8080, 5 runs)
 */
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.mjs';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 5;
const base =
  args.find((arg, i) => !arg.startsWith('--') && i !== runsAt + 1) ?? 'http://localhost:8080';
const ROUTES = ['/', '/options', '/risks', '/pricing', '/options/lido'];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
const rows = [];
try {
  for (const route of ROUTES) {
    const samples = [];
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 150,
        downloadThroughput: (1.6e6 / 8) * 0.9,
        uploadThroughput: (750e3 / 8) * 0.9,
      });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await page.goto(base + route, { waitUntil: 'networkidle' });
      samples.push(
        await page.evaluate(() => {
          const entries = performance.getEntriesByType('resource');
          const last = (test) =>
            Math.max(0, ...entries.filter((e) => test(new URL(e.name))).map((e) => e.responseEnd));
          const shellOrigin = location.origin;
          return {
            table: last((url) => /\/(pages|remotes)\.json$/.test(url.pathname)),
            shell: last((url) => url.origin === shellOrigin && /^\/[^/]+\.js$/.test(url.pathname)),
          };
        }),
      );
      await context.close();
    }
    const table = median(samples.map((s) => s.table));
    const shell = median(samples.map((s) => s.shell));
    rows.push(
      `| ${route} | ${Math.round(table)} ms | ${Math.round(shell)} ms | ${
        table <= shell ? 'no' : `${Math.round(table - shell)} ms`
      } |`,
    );
  }
} finally {
  await browser.close();
}
console.log(`median of ${runs} runs, 4x CPU slowdown, 150 ms RTT, 1.6 Mbps`);
console.log('| route | route table read | shell scripts loaded | render held back |');
console.log('|---|---|---|---|');
for (const row of rows) console.log(row);
