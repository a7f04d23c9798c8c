import { chromium } from '@playwright/test';
import fs from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire('/work/wt/phone14/node_modules/.pnpm/@jridgewell+trace-mapping@0.3.31/node_modules/@jridgewell/trace-mapping/package.json');
const { TraceMap, originalPositionFor } = require('@jridgewell/trace-mapping');
const maps = new Map();
function mapOf(url) {
  if (maps.has(url)) return maps.get(url);
  let m = null;
  try {
    const p = new URL(url).pathname;
    const file = p.startsWith('/remotes/') ? '/work/wt/phone14/' + p.split('/')[2] + '/dist/' + p.split('/').slice(3).join('/') : '/work/wt/phone14/shell/dist' + p;
    m = new TraceMap(fs.readFileSync(file + '.map', 'utf8'));
  } catch {}
  maps.set(url, m); return m;
}
const DEPTH = Number(process.env.DEPTH ?? 3);
function where(f) {
  const m = f.url && mapOf(f.url);
  if (!m) return `${f.functionName || '(' + (f.url ? f.url.replace(/^.*\//, '') : 'native') + ')'}`;
  const o = originalPositionFor(m, { line: f.lineNumber + 1, column: f.columnNumber });
  const src = (o.source || '?').replace(/^.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, '').replace(/^webpack:\/\/[^/]*\//, '');
  return src.split('/').slice(0, DEPTH).join('/') + (process.env.FN ? ' ' + (o.name || f.functionName) : '');
}
const url = process.argv[2];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 412, height: 823 } });
const cdp = await page.context().newCDPSession(page);
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
await page.addInitScript(() => {
  window.__lt = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lt.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
  const t0 = performance.now();
  window.__calib = t0;
  (function calibrationSpin() { while (performance.now() - t0 < 15) {} })();
});
await cdp.send('Profiler.start');
await page.goto(url, { waitUntil: 'load' });
await page.waitForTimeout(7000);
const { profile } = await cdp.send('Profiler.stop');
const { lt, calib, fcp } = await page.evaluate(() => ({ lt: window.__lt, calib: window.__calib, fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime }));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map(); for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
let t = profile.startTime; const times = profile.timeDeltas.map((d) => (t += d));
// calibration: first sample inside calibrationSpin
let offset = null;
profile.samples.forEach((id, i) => { if (offset === null && byId.get(id).callFrame.functionName === 'calibrationSpin') offset = times[i] / 1000 - calib; });
console.log('fcp', Math.round(fcp), 'offset ok', offset !== null);
let tbt = 0;
for (const [start, dur] of lt) {
  if (start < fcp) continue;
  tbt += Math.max(0, dur - 50);
  const self = new Map(); const stacks = new Map();
  profile.samples.forEach((id, i) => {
    const ms = times[i] / 1000 - offset; if (ms < start || ms > start + dur) return;
    const k = where(byId.get(id).callFrame); self.set(k, (self.get(k) ?? 0) + profile.timeDeltas[i] / 1000);
    // outermost app frame (the task's entry)
    let n = id, outer = null; while (n !== undefined) { const f = byId.get(n).callFrame; if (f.url) outer = f; n = parent.get(n); }
    const ok = outer ? where(outer) : '(none)'; stacks.set(ok, (stacks.get(ok) ?? 0) + profile.timeDeltas[i] / 1000);
  });
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(' | ');
  const entry = [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 2).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(' | ');
  console.log(`task @${Math.round(start)} ${Math.round(dur)}ms  entry: ${entry}\n     self: ${top}`);
}
console.log('TBT (observed, 4x):', Math.round(tbt));
await browser.close();
