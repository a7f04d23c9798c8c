import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.mjs';
const base = process.argv[2] ?? 'http://localhost:4212';
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
for (const route of ['/', '/options', '/risks', '/pricing']) {
  for (let run = 0; run < 3; run++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8 * 0.9, uploadThroughput: 750e3 / 8 * 0.9 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(base + route, { waitUntil: 'networkidle' });
    const t = await page.evaluate(() => {
      const res = performance.getEntriesByType('resource');
      const end = (re) => Math.max(0, ...res.filter((r) => re.test(r.name)).map((r) => r.responseEnd));
      return {
        pagesJson: Math.round(end(/pages\.json$/)),
        remotesJson: Math.round(end(/remotes\.json$/)),
        shellScripts: Math.round(end(/localhost:\d+\/[^/]+\.js$/)),
        bootstrap: Math.round(end(/\/bootstrap\.[0-9a-f]+\.js$/)),
        fcp: Math.round(performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0),
      };
    });
    console.log(route, JSON.stringify(t));
    await context.close();
  }
}
await browser.close();
