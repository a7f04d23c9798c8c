#!/usr/bin/env node
/**
 * Initial JavaScript per route, in gzip bytes, measured from the built site: loads each route in
 * Chromium against the running production server, collects every script it downloads until the
 * network is idle, and sums the gzip size of those files as built on disk.
 *   node bench/bundle-size.mjs [base-url] [--phone]   (default http://localhost:8080)
 * --phone loads each route at a phone's viewport (412 x 823, Lighthouse's mobile screen), where
 * the comparison draws no Highcharts until its chart is tapped.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.mjs';

const args = process.argv.slice(2);
const base = args.find((a) => !a.startsWith('--')) ?? 'http://localhost:8080';
const viewport = args.includes('--phone')
  ? { width: 412, height: 823 }
  : { width: 1280, height: 900 };
const root = path.resolve(import.meta.dirname, '..');
const ROUTES = [
  '/',
  '/options',
  '/options/lido',
  '/strategy/3',
  '/pricing',
  '/premium-email',
  '/risks',
  '/how-to',
  '/methodology',
  '/scanner',
  '/compare?ids=3,8,13',
  '/privacy-policy',
  '/no-such-page',
];

function fileFor(url) {
  const { pathname } = new URL(url);
  const remote = /^\/remotes\/([^/]+)\/(.+)$/.exec(pathname);
  return remote
    ? path.join(root, remote[1], 'dist', remote[2])
    : path.join(root, 'shell', 'dist', pathname);
}

function gzipSize(file) {
  if (fs.existsSync(`${file}.gz`)) return fs.statSync(`${file}.gz`).size;
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

const entry = fs
  .readdirSync(path.join(root, 'shell', 'dist'))
  .find((f) => /^main\.[0-9a-f]{8}\.js$/.test(f));
const entryGzip = gzipSize(path.join(root, 'shell', 'dist', entry));

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
const rows = [];
try {
  for (const route of ROUTES) {
    const page = await browser.newPage({ viewport });
    const scripts = new Set();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script' && response.ok())
        scripts.add(response.url());
    });
    await page.goto(base + route, { waitUntil: 'networkidle' });
    let total = 0;
    const byApp = {};
    for (const url of scripts) {
      const file = fileFor(url);
      if (!fs.existsSync(file)) continue;
      const size = gzipSize(file);
      total += size;
      const app = /^\/remotes\/([^/]+)\//.exec(new URL(url).pathname)?.[1] ?? 'shell';
      byApp[app] = (byApp[app] ?? 0) + size;
    }
    const split = Object.entries(byApp)
      .map(([app, size]) => `${app} ${(size / 1024).toFixed(1)}`)
      .join(', ');
    rows.push(`| ${route} | ${scripts.size} | ${(total / 1024).toFixed(1)} KB | ${split} |`);
    await page.close();
  }
} finally {
  await browser.close();
}
console.log(
  `Shell synchronous entry (${entry}): ${(entryGzip / 1024).toFixed(1)} KB gzip (budget 60 KB)`,
);
console.log('| route | scripts | initial JS (gzip) | by app (KB gzip) |');
console.log('|---|---|---|---|');
for (const row of rows) console.log(row);
