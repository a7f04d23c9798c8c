import fs from 'node:fs';
import type { RemotesManifest } from '@yield/federation/registry';

/** Characters that would end or split a CSP source (`;`, `,`, quotes, whitespace). */
const CSP_BREAKING = /[;,'"\s\\]/;

/**
 * Whether a remotes-manifest entry is a URL the server may build on: an absolute http(s) URL or
 * a same-origin path (`/remotes/...`), with nothing that could split the Content-Security-Policy.
 */
export function isValidRemoteUrl(url: unknown): url is string {
  if (typeof url !== 'string' || url === '' || CSP_BREAKING.test(url)) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(url)) return false;
  if (url.startsWith('/')) return !url.startsWith('//');
  try {
    const parsed = new URL(url);
    return (
      (parsed.protocol === 'https:' || parsed.protocol === 'http:') &&
      !CSP_BREAKING.test(parsed.origin)
    );
  } catch {
    return false;
  }
}

/** The manifest's valid entries; each invalid one is logged and left out. */
function validManifest(manifest: unknown, file: string): Partial<RemotesManifest> {
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
    console.error(`remotes manifest ${file}: not an object, ignored`);
    return {};
  }
  const valid: Record<string, string> = {};
  for (const [name, url] of Object.entries(manifest)) {
    if (isValidRemoteUrl(url)) valid[name] = url;
    else
      console.error(
        `remotes manifest ${file}: entry ${JSON.stringify(name)} ignored, ${JSON.stringify(url)} is not an http(s) URL or a path of this site`,
      );
  }
  return valid as Partial<RemotesManifest>;
}

function originsOf(manifest: Partial<RemotesManifest>): string[] {
  const origins = new Set<string>();
  for (const url of Object.values(manifest)) {
    // Paths are same-origin: 'self' covers them.
    if (typeof url === 'string' && !url.startsWith('/')) origins.add(new URL(url).origin);
  }
  return [...origins];
}

export interface ManifestState {
  mtimeMs: number;
  manifest: Partial<RemotesManifest>;
  origins: string[];
}

/** The remotes manifest file, read again whenever its modification time changes. */
export class RemotesManifestFile {
  private cache: ManifestState | null = null;

  constructor(readonly path: string) {}

  /** The manifest's valid entries now and their origins; empty when the file cannot be read. */
  current(): ManifestState {
    try {
      const { mtimeMs } = fs.statSync(this.path);
      if (this.cache?.mtimeMs !== mtimeMs) {
        const manifest = validManifest(
          JSON.parse(fs.readFileSync(this.path, 'utf8')) as unknown,
          this.path,
        );
        this.cache = { mtimeMs, manifest, origins: originsOf(manifest) };
      }
      return this.cache;
    } catch {
      return { mtimeMs: 0, manifest: {}, origins: [] };
    }
  }
}
