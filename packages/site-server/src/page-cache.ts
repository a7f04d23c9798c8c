import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { LRUCache } from 'lru-cache';

/** Brotli 5 and gzip 6 compress a page in a few milliseconds (brotli 11 took hundreds). */
const PAGE_BROTLI_QUALITY = 5;
const PAGE_GZIP_LEVEL = 6;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** A page as sent: its HTML and both compressions, and the signature of what it was built from. */
export interface CachedPage {
  signature: string;
  html: Buffer;
  br: Buffer;
  gz: Buffer;
  etag: string;
}

/** Compressed once per page, off the event loop, at qualities that take milliseconds. */
export async function compressed(signature: string, text: string): Promise<CachedPage> {
  const html = Buffer.from(text);
  const [br, gz] = await Promise.all([
    brotli(html, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: PAGE_BROTLI_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: html.length,
      },
    }),
    gzip(html, { level: PAGE_GZIP_LEVEL }),
  ]);
  const etag = `"${createHash('sha1').update(html).digest('base64url')}"`;
  return { signature, html, br, gz, etag };
}

export interface PageCacheOptions {
  /** Bytes of pages kept, the least recently used dropped first. */
  maxBytes: number;
  /** Pages rendered at once. */
  maxRenders: number;
  /** Milliseconds of each second that may be spent rendering. */
  renderBudgetMs: number;
}

/**
 * Pages by URL (path and the query parameters the page reads), the least recently used dropped
 * first once their bytes pass the budget; an entry is rebuilt when its signature changes, and
 * concurrent requests for one URL wait for one build. Renders run on the event loop: how many run
 * at once and the time they took in the last second are capped, so that a stream of never-seen
 * URLs cannot take the API's time.
 */
export class PageCache {
  private readonly pages: LRUCache<string, CachedPage>;
  private readonly building = new Map<string, Promise<CachedPage>>();
  private rendering = 0;
  private readonly recentRenders: { at: number; ms: number }[] = [];

  constructor(private readonly options: PageCacheOptions) {
    this.pages = new LRUCache<string, CachedPage>({
      maxSize: options.maxBytes,
      sizeCalculation: (page) => page.html.length + page.br.length + page.gz.length + 200,
    });
  }

  /** The cached page of `key`, built by `build` when missing or out of date. */
  async get(key: string, signature: string, build: () => Promise<CachedPage>): Promise<CachedPage> {
    const cached = this.pages.get(key);
    if (cached?.signature === signature) return cached;
    const pending = this.building.get(key);
    if (pending) return pending;
    const promise = build().finally(() => this.building.delete(key));
    this.building.set(key, promise);
    const page = await promise;
    if (page.signature === signature) this.pages.set(key, page);
    return page;
  }

  /** Whether `key` would need a render now (neither cached nor being built) while renders are busy. */
  tooBusyFor(key: string, signature: string): boolean {
    if (this.pages.get(key)?.signature === signature || this.building.has(key)) return false;
    return (
      this.rendering >= this.options.maxRenders ||
      this.renderTimeLastSecond() >= this.options.renderBudgetMs
    );
  }

  /** Runs `build` counted as one of the renders under way. */
  async rendered(build: () => Promise<CachedPage>): Promise<CachedPage> {
    this.rendering++;
    try {
      return await build();
    } finally {
      this.rendering--;
    }
  }

  /** Counts `ms` spent rendering, just now, against the budget. */
  spent(ms: number): void {
    this.recentRenders.push({ at: performance.now(), ms });
  }

  private renderTimeLastSecond(): number {
    const since = performance.now() - 1000;
    while (this.recentRenders.length > 0 && this.recentRenders[0]!.at <= since) {
      this.recentRenders.shift();
    }
    return this.recentRenders.reduce((sum, render) => sum + render.ms, 0);
  }
}
