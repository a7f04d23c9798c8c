/** Small builds of a remote and of the shell for the release tests (no bundler run). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface FixtureBuild {
  /** Varies the release id. */
  marker?: string;
  pages?: unknown;
  exposes?: string[];
  shared?: { name: string; version: string; requiredVersion?: string }[];
  /** Source of server/render.cjs; none when undefined. */
  render?: string;
}

export const OK_RENDER =
  "exports.render = (module, context) => { if (module === 'Broken') throw new Error('no settings.siteTitle'); return '<p>' + context.settings.siteTitle + '</p>'; };";

export const SHELL_SHARED = [
  { name: 'react', version: '19.3.1' },
  { name: 'react-dom', version: '19.3.1' },
  { name: 'react-router', version: '7.18.5' },
  { name: '@yield/platform', version: '1.1.0' },
];

export function writeBuild(dir: string, build: FixtureBuild = {}): string {
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  write('remoteEntry.js', `/* ${build.marker ?? 'first'} */`);
  write('main.js', 'console.log(1)');
  write(
    'pages.json',
    JSON.stringify(
      build.pages ?? {
        pages: [
          { path: '/risks', module: './RisksPage', title: 'Risks' },
          {
            path: '/strategy/:id',
            module: './Strategy',
            title: 'Strategy',
            data: ['/api/strategy-content/:id'],
          },
        ],
      },
    ),
  );
  write(
    'mf-manifest.json',
    JSON.stringify({
      exposes: (build.exposes ?? ['RisksPage', 'Strategy']).map((name) => ({ name })),
      shared: build.shared ?? [{ name: 'react', version: '19.3.1', requiredVersion: '^19.3.1' }],
    }),
  );
  if (build.render !== undefined) write('server/render.cjs', build.render);
  return dir;
}

/** A repository root with the shell's build and mfe-content's build, and an empty data dir. */
export function fixtureSite(): { rootDir: string; dataDir: string; tmp: string } {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'releases-'));
  const rootDir = path.join(tmp, 'root');
  fs.mkdirSync(path.join(rootDir, 'shell', 'dist'), { recursive: true });
  fs.writeFileSync(
    path.join(rootDir, 'shell', 'dist', 'mf-manifest.json'),
    JSON.stringify({ exposes: [], shared: SHELL_SHARED }),
  );
  writeBuild(path.join(rootDir, 'mfe-content', 'dist'));
  const dataDir = path.join(tmp, 'data');
  fs.mkdirSync(dataDir);
  fs.writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify({ siteTitle: 'Pigi' }));
  return { rootDir, dataDir, tmp };
}
