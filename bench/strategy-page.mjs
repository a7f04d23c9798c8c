#!/usr/bin/env node
/**
 * The strategy page's speed, every run shown: Lighthouse on `/options/lido` (or `--path`) at each
 * given site, phone (mobile, default throttling: 4x CPU) then desktop, N runs each.
 *   node bench/strategy-page.mjs <base-url> [<base-url>...] [--runs N] [--path /options/lido]
 * Several sites (e.g. this build and the build before, served on two ports) are measured turn by
 * turn (run 1 of each site, then run 2 ...), so a change of the machine's load touches them alike.
 * Prints one row per run (performance, TBT, LCP, FCP, CLS, react-dom's main-thread time, and the
 * long tasks the TBT is made of: script, start, blocking part after first paint) and the load
 * average at the start and the end. `LH_DUMP=<folder>` keeps each run's whole report.
 */
import os from 'node:os';
import { warmUp, withChromium } from './lighthouse-run.mjs';

const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const runs = Number(option('--runs') ?? 3);
const pagePath = option('--path') ?? '/options/lido';
const bases = args
  .filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'))
  .map((base) => base.replace(/\/$/, ''));
if (bases.length === 0) {
  console.error(
    'usage: node bench/strategy-page.mjs <base-url>... [--runs N] [--path /options/lido]',
  );
  process.exit(2);
}

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const startLoad = load();
const started = new Date().toISOString();

/** A script's file name, from its URL. */
const scriptName = (url) => url.split('/').pop().split('?')[0];

/** The main-thread time of the largest script (react-dom's shared chunk on these pages). */
const topScript = (scripts) => {
  const top = [...scripts].filter((s) => /\.js/.test(s.url)).sort((a, b) => b.total - a.total)[0];
  return top ? `${scriptName(top.url)} ${Math.round(top.total)} ms` : '';
};

/** The tasks the TBT is made of, in order: `script@start: blocking ms` (Lighthouse's long tasks). */
const blocking = (tasks) =>
  tasks
    .map((t) => `${scriptName(t.url)}@${Math.round(t.start)}: ${Math.round(t.blocking)}`)
    .join(', ');

await warmUp(bases.map((base) => base + pagePath));

const rows = [];
await withChromium(async (measure) => {
  for (const formFactor of ['mobile', 'desktop']) {
    for (let run = 1; run <= runs; run++) {
      for (const base of bases) {
        const url = base + pagePath;
        const label = formFactor === 'mobile' ? 'phone' : 'desktop';
        try {
          const r = await measure(url, { formFactor });
          rows.push(
            `| ${base} | ${label} | ${run} | ${(r.performance / 100).toFixed(2)} | ${Math.round(r.tbt)} ms | ${(r.lcp / 1000).toFixed(2)} s | ${(r.fcp / 1000).toFixed(2)} s | ${r.cls.toFixed(3)} | ${topScript(r.scripts)} | ${blocking(r.blocking)} |`,
          );
        } catch (error) {
          rows.push(`| ${base} | ${label} | ${run} | failed: ${error.message} | | | | | | |`);
        }
      }
    }
  }
});

console.log(`${pagePath}, ${runs} run(s) per site and form factor, Debian Chromium headless`);
console.log(`started ${started}, load average ${startLoad} → ${load()} (1, 5, 15 min)`);
console.log(
  '| site | form factor | run | perf | TBT | LCP | FCP | CLS | largest script | blocking tasks |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const row of rows) console.log(row);
