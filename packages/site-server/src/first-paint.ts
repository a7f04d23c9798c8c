/**
 * The first paint of a page, composed on the server (contract: @yield/platform first-paint.ts).
 * The remote that owns the page's first module renders it in its initial state; the shell renders
 * the frame around it; the page's HTML carries both, styled by render-blocking stylesheets, so the
 * browser paints the page before running any JavaScript.
 *
 * Renderers are the builds' `dist/server/render.cjs`, reloaded when a build replaces them. A
 * remote served from another origin, a missing renderer or one that throws only costs the head
 * start: the page is sent as before and the browser renders it.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import {
  FIRST_PAINT_DATA_ID,
  FIRST_PAINT_HEAD_ATTR,
  firstPaintKey,
  type RenderFrame,
  type RenderModule,
} from '@yield/platform/first-paint';
import { pageDataUrls, type MatchedPage } from '@yield/federation/routes';
import type { RemotesView } from './release-view.ts';

const requireCjs = createRequire(import.meta.url);

/** A server renderer file, reloaded when it changes on disk. */
class Renderer<T> {
  private loaded: { mtimeMs: number; exports: T | null } | null = null;

  constructor(
    readonly file: string,
    private readonly name: string,
  ) {}

  /** File time, part of the page cache's signature. */
  stamp(): number {
    try {
      return fs.statSync(this.file).mtimeMs;
    } catch {
      return 0;
    }
  }

  get(): T | null {
    const mtimeMs = this.stamp();
    if (mtimeMs === 0) return null;
    if (this.loaded?.mtimeMs !== mtimeMs) {
      let exports: T | null = null;
      try {
        delete requireCjs.cache[requireCjs.resolve(this.file)];
        const module = requireCjs(this.file) as Record<string, unknown>;
        exports = typeof module[this.name] === 'function' ? (module[this.name] as T) : null;
      } catch (error) {
        console.error(`first paint: cannot load ${this.file}`, error);
      }
      this.loaded = { mtimeMs, exports };
    }
    return this.loaded.exports;
  }
}

export interface FirstPaintOptions {
  rootDir: string;
  /** The body `/api/settings` answers with now; without it there is no first paint. */
  settings: () => { body: Buffer; etag: string } | undefined;
  /** The body a plain GET of the API answers with now (e.g. `/api/sources`), if it has one. */
  data?: (path: string) => { body: Buffer; etag: string } | undefined;
}

export interface FirstPaint {
  /** Goes inside `<div id="root">`. */
  root: string;
  /** Goes at the end of `<head>`: data, the page's title and description. */
  head: string;
}

/** Hoisted tags React renders ahead of the markup (title, meta, link), moved to `<head>`. */
const HOISTED = /^(?:<title>[^<]*<\/title>|<meta [^>]*\/?>|<link [^>]*\/?>)+/;

const escapeJson = (json: string) =>
  json
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

export class FirstPaintRenderer {
  private readonly frame: Renderer<RenderFrame>;
  /** Each build's or release's renderer, by folder (those not used for longest dropped first). */
  private readonly modules = new LRUCache<string, Renderer<RenderModule>>({ max: 64 });

  constructor(private readonly options: FirstPaintOptions) {
    this.frame = new Renderer(
      path.join(options.rootDir, 'shell', 'dist', 'server', 'render.cjs'),
      'renderFrame',
    );
  }

  /** The renderer of a remote's build or release served here (`view`), or null. */
  private moduleRenderer(remote: string, view: RemotesView): Renderer<RenderModule> | null {
    const dir = view.localDir(remote);
    if (!dir) return null;
    let renderer = this.modules.get(dir);
    if (!renderer) {
      renderer = new Renderer(path.join(dir, 'server', 'render.cjs'), 'render');
      this.modules.set(dir, renderer);
    }
    return renderer;
  }

  /**
   * Loads the renderers `route` needs, when a build has replaced them or on first use: a render
   * timed after this is the render alone.
   */
  load(route: MatchedPage, view: RemotesView): void {
    this.frame.get();
    const first = route.modules[0];
    if (first) this.moduleRenderer(first.remote, view)?.get();
  }

  /** Changes whenever the output may change: settings, data, the shell's or a remote's renderer. */
  signature(route: MatchedPage, view: RemotesView): string {
    const first = route.modules[0];
    const moduleStamp = first ? (this.moduleRenderer(first.remote, view)?.stamp() ?? 0) : 0;
    const data = this.pageData(route, view)
      .map(([, answer]) => answer.etag)
      .join(',');
    return `${this.options.settings()?.etag ?? ''}:${this.frame.stamp()}:${moduleStamp}:${data}`;
  }

  /**
   * The answers to the page's first API reads, when its first module paints with them
   * (`RenderModule.withData`) and the API has them at hand (same process, no request).
   */
  private pageData(
    route: MatchedPage,
    view: RemotesView,
  ): [string, { body: Buffer; etag: string }][] {
    const first = route.modules[0];
    const render = first ? this.moduleRenderer(first.remote, view)?.get() : null;
    if (!first || !render?.withData?.includes(first.module) || !this.options.data) return [];
    return pageDataUrls(route).flatMap((url) => {
      const answer = this.options.data!(url);
      return answer ? [[url, answer] as [string, { body: Buffer; etag: string }]] : [];
    });
  }

  /**
   * `preload`: scripts the browser fetches right after the first paint; `fetch`: reads it starts
   * then (those embedded in the page are left out); `styles`: stylesheets it preloads then.
   */
  render(
    location: string,
    route: MatchedPage,
    view: RemotesView,
    preload: string[] = [],
    fetch: string[] = [],
    styles: string[] = [],
  ): FirstPaint | null {
    const settingsBody = this.options.settings();
    const renderFrame = this.frame.get();
    if (!settingsBody || !renderFrame) return null;
    const json = settingsBody.body.toString('utf8');
    const answers = this.pageData(route, view);
    const dataJson = `{${answers
      .map(([url, answer]) => `${JSON.stringify(url)}:${answer.body.toString('utf8')}`)
      .join(',')}}`;
    const context = {
      path: location,
      pattern: route.path,
      settings: JSON.parse(json),
      ...(answers.length > 0 ? { data: JSON.parse(dataJson) as Record<string, unknown> } : {}),
    };
    try {
      const modules: Record<string, string> = {};
      let hoisted = '';
      const first = route.modules[0];
      const render = first ? this.moduleRenderer(first.remote, view)?.get() : null;
      const html = first && render ? render(first.module, context) : null;
      if (first) {
        // Without the module's own markup the paint would be a frame around a spinner, and would
        // hold back the module's scripts until it is on screen: the page is better sent as before.
        if (html === null) return null;
        hoisted = HOISTED.exec(html)?.[0] ?? '';
        modules[firstPaintKey(first.remote, first.module)] = html.slice(hoisted.length);
      }
      return {
        root: renderFrame(
          context,
          modules,
          first ? { modules: route.modules } : null,
          // The browser hydrates a page whose only module says it can be hydrated.
          first && route.modules.length === 1 && render?.hydrate?.includes(first.module)
            ? [firstPaintKey(first.remote, first.module)]
            : [],
        ),
        head:
          `<script type="application/json" id="${FIRST_PAINT_DATA_ID}">` +
          `{"settings":${escapeJson(json)},"preload":${escapeJson(JSON.stringify(preload))}` +
          `,"styles":${escapeJson(JSON.stringify(styles))}` +
          `,"fetch":${escapeJson(JSON.stringify(fetch.filter((url) => !answers.some(([embedded]) => embedded === url))))}` +
          (answers.length > 0 ? `,"data":${escapeJson(dataJson)}` : '') +
          `}</script>` +
          hoisted.replace(/<(title|meta|link)\b/g, `<$1 ${FIRST_PAINT_HEAD_ATTR}=""`),
      };
    } catch (error) {
      console.error(`first paint of ${location} failed`, error);
      return null;
    }
  }
}
