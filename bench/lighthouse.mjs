#!/usr/bin/env node
/**
 * Lighthouse against the running production site with Debian Chromium, offline.
 *   node bench/lighthouse.mjs <url> [<url>...] [--mobile|--desktop] [--runs N]
 * Prints one markdown row per URL (median of N runs): performance, accessibility, best
 * practices, SEO, FCP, LCP, TBT, CLS and bytes transferred.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.mjs';

const args = process.argv.slice(2);
const formFactor = args.includes('--desktop') ? 'desktop' : 'mobile';
const runsIndex = args.indexOf('--runs');
const runs = runsIndex >= 0 ? Number(args[runsIndex + 1]) : 3;
const urls = args.filter((a, i) => !a.startsWith('--') && i !== runsIndex + 1);
if (urls.length === 0) {
  console.error('usage: node bench/lighthouse.mjs <url>... [--mobile|--desktop] [--runs N]');
  process.exit(2);
}

async function launchChromium() {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-'));
  const port = 9300 + Math.floor(Math.random() * 500);
  const child = spawn(
    CHROMIUM_PATH,
    [
      ...CHROMIUM_FLAGS,
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${userDataDir}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 100; i++) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/json/version`);
      if (response.ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    port,
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      try {
        fs.rmSync(userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
      } catch {
        // Chromium may still be writing its profile: a leftover temp folder is harmless.
      }
    },
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** The LCP element as `selector: text`, from the LCP breakdown insight. */
function lcpElementOf(audits) {
  const node = audits['lcp-breakdown-insight']?.details?.items?.find(
    (item) => item.type === 'node',
  );
  return node ? `${node.selector}: ${node.nodeLabel}` : '';
}

const chrome = await launchChromium();
const rows = [];
const lcpElements = [];
try {
  for (const url of urls) {
    const results = [];
    for (let run = 0; run < runs; run++) {
      const result = await lighthouse(
        url,
        {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        },
        formFactor === 'desktop' ? desktopConfig : undefined,
      );
      if (!result || result.lhr.runtimeError) {
        console.error(
          `run ${run + 1} of ${url} failed: ${result?.lhr.runtimeError?.message ?? 'no result'}`,
        );
        continue;
      }
      const { categories, audits } = result.lhr;
      results.push({
        performance: categories.performance.score * 100,
        accessibility: categories.accessibility.score * 100,
        bestPractices: categories['best-practices'].score * 100,
        seo: categories.seo.score * 100,
        fcp: audits['first-contentful-paint'].numericValue,
        lcp: audits['largest-contentful-paint'].numericValue,
        tbt: audits['total-blocking-time'].numericValue,
        cls: audits['cumulative-layout-shift'].numericValue,
        bytes: audits['total-byte-weight'].numericValue,
        lcpElement: lcpElementOf(audits),
      });
    }
    if (results.length === 0) {
      rows.push(`| ${new URL(url).pathname} | ${formFactor} | every run failed | | | | | | | | |`);
      continue;
    }
    const pick = (key) => median(results.map((r) => r[key] ?? 0));
    lcpElements.push(`${new URL(url).pathname}: ${results.at(-1).lcpElement.slice(0, 160)}`);
    rows.push(
      `| ${new URL(url).pathname} | ${formFactor} | ${pick('performance')} | ${pick('accessibility')} | ${pick('bestPractices')} | ${pick('seo')} | ${(pick('fcp') / 1000).toFixed(2)} s | ${(pick('lcp') / 1000).toFixed(2)} s | ${Math.round(pick('tbt'))} ms | ${pick('cls').toFixed(3)} | ${Math.round(pick('bytes') / 1024)} KB |`,
    );
  }
} finally {
  await chrome.close();
}
console.log(`Lighthouse ${formFactor}, median of ${runs} run(s), Debian Chromium headless`);
console.log(
  '| page | form factor | perf | a11y | best practices | SEO | FCP | LCP | TBT | CLS | transferred |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
console.log('\nLCP element (last run):');
for (const line of lcpElements) console.log(`- ${line}`);
