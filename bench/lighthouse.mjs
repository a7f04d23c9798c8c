#!/usr/bin/env node
/**
 * Lighthouse against the running production site with Debian Chromium, offline.
 *   node bench/lighthouse.mjs <url> [<url>...] [--mobile|--desktop] [--runs N]
 * Prints one markdown row per URL (median of N runs): performance, accessibility, best
 * practices, SEO, FCP, LCP, TBT, CLS and bytes transferred.
 */
import { median, withChromium } from './lighthouse-run.mjs';

const args = process.argv.slice(2);
const formFactor = args.includes('--desktop') ? 'desktop' : 'mobile';
const runsIndex = args.indexOf('--runs');
const runs = runsIndex >= 0 ? Number(args[runsIndex + 1]) : 3;
const urls = args.filter((a, i) => !a.startsWith('--') && i !== runsIndex + 1);
if (urls.length === 0) {
  console.error('usage: node bench/lighthouse.mjs <url>... [--mobile|--desktop] [--runs N]');
  process.exit(2);
}

const rows = [];
const lcpElements = [];
await withChromium(async (measure) => {
  for (const url of urls) {
    const results = [];
    for (let run = 0; run < runs; run++) {
      try {
        results.push(await measure(url, { formFactor }));
      } catch (error) {
        console.error(`run ${run + 1} of ${url} failed: ${error.message}`);
      }
    }
    if (results.length === 0) {
      rows.push(`| ${new URL(url).pathname} | ${formFactor} | every run failed | | | | | | | | |`);
      continue;
    }
    const pick = (key) => median(results.map((r) => r[key] ?? 0));
    lcpElements.push(`${new URL(url).pathname}: ${results.at(-1).lcpElement.slice(0, 160)}`);
    rows.push(
      `| ${new URL(url).pathname} | ${formFactor} | ${Math.round(pick('performance'))} | ${pick('accessibility')} | ${pick('bestPractices')} | ${pick('seo')} | ${(pick('fcp') / 1000).toFixed(2)} s | ${(pick('lcp') / 1000).toFixed(2)} s | ${Math.round(pick('tbt'))} ms | ${pick('cls').toFixed(3)} | ${Math.round(pick('bytes') / 1024)} KB |`,
    );
  }
});
console.log(`Lighthouse ${formFactor}, median of ${runs} run(s), Debian Chromium headless`);
console.log(
  '| page | form factor | perf | a11y | best practices | SEO | FCP | LCP | TBT | CLS | transferred |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
console.log('\nLCP element (last run):');
for (const line of lcpElements) console.log(`- ${line}`);
