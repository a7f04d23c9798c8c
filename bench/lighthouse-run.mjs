/**
 * Lighthouse 13.5 in Debian Chromium, offline: the one runner of `lighthouse.mjs` and
 * `phone.mjs`. `withChromium(fn)` starts a headless Chromium for `fn(measure)`;
 * `measure(url, { formFactor })` runs Lighthouse once and returns the figures of that run.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.mjs';

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

export const median = (values) => {
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

/**
 * One request of each page before measuring, so that no run pays for a server that has just
 * started (its first server render of a page loads and compiles the page's modules).
 */
export async function warmUp(urls) {
  for (const url of urls) await fetch(url).then((response) => response.text());
}

/** Runs `fn(measure)` with one Chromium, closed afterwards. */
export async function withChromium(fn) {
  const chrome = await launchChromium();
  try {
    return await fn(async (url, { formFactor = 'mobile' } = {}) => {
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
        throw new Error(result?.lhr.runtimeError?.message ?? 'no result');
      }
      const { categories, audits } = result.lhr;
      // LH_DUMP=<folder>: keep each run's whole report, to look into a figure afterwards.
      if (process.env.LH_DUMP) {
        fs.mkdirSync(process.env.LH_DUMP, { recursive: true });
        const name = `${formFactor}-${url.replace(/^https?:\/\/[^/]+/, '').replace(/[^a-z0-9]+/gi, '_') || 'root'}-${Date.now()}.json`;
        fs.writeFileSync(path.join(process.env.LH_DUMP, name), JSON.stringify(result.lhr));
      }
      return {
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
        // The tasks that made the TBT: each long task's blocking part after first paint
        // (Lighthouse's rule: the part of a task past 50 ms, a task clipped at FCP).
        blocking: (audits['long-tasks']?.details?.items ?? [])
          .map((task) => ({
            url: task.url,
            start: task.startTime,
            blocking:
              task.startTime +
              task.duration -
              Math.max(task.startTime, audits['first-contentful-paint'].numericValue) -
              50,
          }))
          .filter((task) => task.blocking > 0)
          .sort((a, b) => a.start - b.start),
        // Main-thread time per script (Lighthouse's bootup-time audit): where the TBT comes from.
        scripts: (audits['bootup-time']?.details?.items ?? []).map((item) => ({
          url: item.url,
          total: item.total,
          scripting: item.scripting,
        })),
      };
    });
  } finally {
    await chrome.close();
  }
}
