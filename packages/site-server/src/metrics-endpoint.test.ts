/**
 * /metrics on the site's public port: Prometheus text only with METRICS_TOKEN as bearer token,
 * 404 when no token is set; the API's requests through the site are counted by route pattern.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import { Metrics, metricsHandler } from '@yield/api';
import { createSiteServer } from './site-server.ts';

const TOKEN = 'site-metrics-token-0123456789';
let root: string;
const servers: http.Server[] = [];

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'site-metrics-'));
  fs.mkdirSync(path.join(root, 'shell/dist'), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'shell/dist/index.html'),
    '<!doctype html><html><head></head><body><div id="root"></div></body></html>',
  );
});

afterAll(() => {
  for (const s of servers) s.close();
  fs.rmSync(root, { recursive: true, force: true });
});

async function site(token: string | null): Promise<string> {
  const metrics = new Metrics({ processMetrics: false });
  const server = createSiteServer({
    rootDir: root,
    apiHandler: (req, res) => {
      metrics.request(req.method ?? 'GET', '/api/strategies', 200, 0.001);
      res.setHeader('Content-Type', 'application/json');
      res.end('[]');
    },
    metricsHandler: metricsHandler(metrics, { token, requireToken: true }),
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('/metrics on the public port', () => {
  it('answers only with its bearer token', async () => {
    const base = await site(TOKEN);
    await fetch(`${base}/api/strategies`);
    for (const headers of [
      {} as Record<string, string>,
      { Authorization: 'Bearer wrong-token-0123456789' },
      { Authorization: TOKEN },
    ]) {
      const res = await fetch(`${base}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        error: { code: 'unauthorized', message: expect.any(String) },
      });
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    const res = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    expect(text).toContain('# TYPE http_requests_total counter');
    expect(text).toContain(
      'http_requests_total{method="GET",route="/api/strategies",status="200"} 1',
    );
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
  });

  it('is not there without METRICS_TOKEN', async () => {
    const base = await site(null);
    for (const headers of [
      {} as Record<string, string>,
      { Authorization: 'Bearer anything-at-all-0123' },
    ]) {
      const res = await fetch(`${base}/metrics`, { headers });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('http_requests_total');
    }
  });
});
