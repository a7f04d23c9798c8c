import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu'] });
const p = await b.newPage({ viewport: { width: 1280, height: 900 } });
p.on('console', (m) => console.log('console', m.type(), m.text().slice(0,300)));
p.on('pageerror', (e) => console.log('pageerror', e.message));
p.on('requestfailed', (r) => console.log('failed', r.url()));
p.on('framenavigated', (f) => console.log('nav', f.url()));
const t0 = Date.now();
await p.goto('http://localhost:4202/options');
console.log('goto', Date.now() - t0);
await p.getByRole('link', { name: 'Scan every DeFi pool' }).click();
console.log('clicked', Date.now() - t0);
for (let i = 0; i < 30; i++) {
  if (await p.getByRole('heading', { level: 1, name: 'Yield Scanner' }).count()) { console.log('heading', Date.now() - t0); break; }
  await p.waitForTimeout(1000);
}
console.log(p.url());
await b.close();
