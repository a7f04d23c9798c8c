/**
 * `yield-app build <app> [--out <dir>]` / `yield-app dev <app>`: builds or serves one app with the
 * shared config factory. `--out` builds into another folder than the app's `dist/` (a release a
 * team makes without touching the served build: `pnpm remotes release <remote> --from <dir>`). After a production build every text asset gets .br and .gz siblings so the
 * site server sends precompressed bytes without compressing per request.
 */
import path from 'node:path';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { rspack } from '@rspack/core';
import { RspackDevServer } from '@rspack/dev-server';
import { createAppConfig, createServerConfig, serverEntry } from './create-config.ts';
import type { AppDir } from './registry.ts';

const COMPRESSIBLE = /\.(js|css|html|json|svg|txt|map)$/;

export function precompress(dir: string): number {
  let count = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    // The server renderer is read from disk by the site server, never sent.
    if (path.relative(dir, entry.parentPath).split(path.sep)[0] === 'server') continue;
    const file = path.join(entry.parentPath, entry.name);
    const body = fs.readFileSync(file);
    if (body.length < 512) continue;
    fs.writeFileSync(
      `${file}.br`,
      zlib.brotliCompressSync(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    );
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
    count++;
  }
  return count;
}

async function run(compiler: import('@rspack/core').Compiler) {
  const stats = await new Promise<import('@rspack/core').Stats | undefined>((resolve, reject) =>
    compiler.run((err, result) => (err ? reject(err) : resolve(result ?? undefined))),
  );
  await new Promise<void>((resolve) => compiler.close(() => resolve()));
  if (!stats || stats.hasErrors()) {
    console.error(stats?.toString({ all: false, errors: true, colors: false }) ?? 'build failed');
    process.exit(1);
  }
  return stats;
}

function compile(config: import('@rspack/core').Configuration) {
  return run(rspack(config));
}

async function main() {
  const [command, app, ...options] = process.argv.slice(2);
  const outFlag = options.indexOf('--out');
  const outDir = outFlag === -1 ? undefined : options[outFlag + 1];
  if (outFlag !== -1 && !outDir) {
    console.error('--out needs a folder');
    process.exit(2);
  }
  if (!command || !app || !['build', 'dev'].includes(command)) {
    console.error(
      'usage: yield-app build|dev <shell|mfe-leaderboard|mfe-strategy|mfe-premium|mfe-content> [--out <dir>]',
    );
    process.exit(2);
  }
  const root = process.cwd();
  const mode = command === 'build' ? 'production' : 'development';
  const out = outDir ? path.resolve(outDir) : path.join(root, 'dist');
  const config = await createAppConfig({ app: app as AppDir, root, mode, outDir: out });
  const compiler = rspack(config);

  if (command === 'dev') {
    const server = new RspackDevServer(config.devServer || {}, compiler);
    await server.start();
    return;
  }

  const stats = await run(compiler);
  if (serverEntry(root)) {
    // The server renderer of the first paint (read by the site server, never sent to browsers).
    await compile(createServerConfig({ app: app as AppDir, root, outDir: out }));
  }
  const compressed = precompress(out);
  const time = (stats.endTime ?? 0) - (stats.startTime ?? 0);
  console.log(`${app}: built in ${time} ms, ${compressed} assets precompressed`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
