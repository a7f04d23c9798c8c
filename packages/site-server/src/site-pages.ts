import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import {
  NOT_FOUND_PATH,
  matchPageRoute,
  pageDataUrls,
  type MatchedPage,
} from '@yield/federation/routes';
import {
  AFTER_PAINT_ATTR,
  AFTER_PAINT_SCRIPT,
  FIRST_PAINT_HEAD_ATTR,
} from '@yield/platform/first-paint';
import type { FirstPaintRenderer } from './first-paint.ts';
import { compressed, type CachedPage, type PageCache } from './page-cache.ts';
import { pageSearch } from './page-query.ts';
import type { PageTable } from './page-table.ts';
import type { RemotesView } from './release-view.ts';
import { preloadTags, stylesheetTag, type Hint, type ResourceHints } from './resource-hints.ts';

/** The one inline script a page may run: the start of the app after the first paint. */
export const AFTER_PAINT_HASH = `'sha256-${createHash('sha256').update(AFTER_PAINT_SCRIPT).digest('base64')}'`;

/** The template's preloaded reads (`as="fetch"`) and its deferred entry script. */
const TEMPLATE_FETCH =
  /<link rel="preload" href="([^"]+)" as="fetch" crossorigin(?:="[^"]*")?\s*\/?>/g;
const TEMPLATE_ENTRY = /<script defer(?:="")? src="([^"]+)"><\/script>/;

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A painted page's HTML: nothing is fetched and no script runs ahead of its paint. The template's
 * reads and the page's hints are listed in the paint's data and the entry script is replaced by
 * the after-paint start (AFTER_PAINT_SCRIPT), which preloads them and adds the entry once the
 * paint is on screen; the stylesheets the paint needs are inlined, so the first frame waits for
 * nothing but the HTML.
 */
function paintedTemplate(template: string): {
  text: string;
  fetch: string[];
  entry: string | null;
} {
  const fetch: string[] = [];
  let text = template.replace(TEMPLATE_FETCH, (_, href: string) => {
    fetch.push(href);
    return '';
  });
  const entry = TEMPLATE_ENTRY.exec(text)?.[1] ?? null;
  if (entry) {
    text = text
      .replace(TEMPLATE_ENTRY, '')
      .replace(
        '</body>',
        `<script ${AFTER_PAINT_ATTR}="" data-src="${escapeHtml(entry)}">${AFTER_PAINT_SCRIPT}</script></body>`,
      );
  }
  return { text, fetch, entry };
}

/**
 * The `<title>` of a page sent without server markup: the title its remote declares, as its own
 * PageMeta will render it (`page | site title`). Marked like a first paint's head tags, so the
 * app removes it when it renders its own.
 */
function titleTag(title: string | null, siteTitle: string | null): string {
  if (!title) return '';
  const text = siteTitle ? `${title} | ${siteTitle}` : title;
  return `<title ${FIRST_PAINT_HEAD_ATTR}="">${escapeHtml(text)}</title>`;
}

/** The hrefs of the hints of one kind. */
const hrefsOf = (hints: Hint[], as: Hint['as']) =>
  hints.filter((hint) => hint.as === as).map((hint) => hint.href);

/** Sends a page as it is cached: 304 on a matching ETag, else the encoding the client accepts. */
function writePage(
  req: IncomingMessage,
  res: ServerResponse,
  page: CachedPage,
  { missing, byVisitor }: { missing: boolean; byVisitor: boolean },
) {
  res.statusCode = missing ? 404 : 200;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  // With releases a page names the visitor's releases (their canary cookie).
  res.setHeader('Vary', byVisitor ? 'Accept-Encoding, Cookie' : 'Accept-Encoding');
  if (!missing) res.setHeader('ETag', page.etag);
  if (!missing && req.headers['if-none-match'] === page.etag) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const accepts = String(req.headers['accept-encoding'] ?? '');
  let body = page.html;
  if (/\bbr\b/.test(accepts)) {
    body = page.br;
    res.setHeader('Content-Encoding', 'br');
  } else if (/\bgzip\b/.test(accepts)) {
    body = page.gz;
    res.setHeader('Content-Encoding', 'gzip');
  }
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}

export interface SitePagesOptions {
  /** The shell's build folder, holding the page template `index.html`. */
  shellRoot: string;
  pageTable: PageTable;
  hints: ResourceHints;
  /** Whether pages carry `<link rel="preload">` hints for their modules. */
  resourceHints: boolean;
  /** The first-paint renderer, or null when pages are sent without server markup. */
  firstPaint: FirstPaintRenderer | null;
  cache: PageCache;
  /** The files whose change rebuilds every page (the builds' manifests, the remotes manifest). */
  watchedBuildFiles: string[];
  /** The site's title now, or null. */
  siteTitle: () => string | null;
  /** A stylesheet of this server's builds as the text of a `<style>` element, or null. */
  stylesheetText: (href: string) => string | null;
}

/** A request for a page, matched against the route table. */
interface PageRequest {
  route: MatchedPage;
  /** The remotes as the visitor gets them. */
  view: RemotesView;
  /** What the cached page is built from: the builds, the route table, the first paint's inputs. */
  signature: string;
  /** The path and the query parameters its first paint reads. */
  location: string;
}

/**
 * The site's pages: the shell's index.html with each page's title and resource hints, and, when
 * the server can render them and is not busy, the page's first paint; cached by URL.
 */
export class SitePages {
  constructor(private readonly options: SitePagesOptions) {}

  /** Sends the page of `pathname` built from the remotes of `view`; returns its route. */
  async send(
    req: IncomingMessage,
    res: ServerResponse,
    { pathname, search, view }: { pathname: string; search: string; view: RemotesView },
  ): Promise<MatchedPage> {
    const { table, signature: pagesSignature } = await this.options.pageTable.current(view);
    const route = matchPageRoute(table, pathname);
    // An unknown path may be a page of a remote whose list could not be read: the browser shows
    // it as contained, so the server neither paints a not-found page for it nor calls it missing.
    const paintable = route.path !== NOT_FOUND_PATH || table.complete;
    // No page of the (complete) route table matches: the shell's not-found page, with a real 404
    // so that search engines and monitors see it. A known page with an unknown id is answered by
    // its page, which redirects as each such page of the product does (docs/decisions.md, "Real 404s").
    const missing = route.path === NOT_FOUND_PATH && table.complete;
    // A first paint depends on the exact path (links marked current, ids) and on the query
    // parameters its page reads (the sources /compare shows), nothing else: it is rendered and
    // cached for those only (page-query.ts).
    const location = pathname + pageSearch(route.modules[0]?.module, search);
    const signature = this.signature(route, pagesSignature, view);
    const page = await this.page({ route, view, signature, location }, paintable);
    writePage(req, res, page, { missing, byVisitor: view.releases });
    return route;
  }

  private signature(route: MatchedPage, pagesSignature: string, view: RemotesView): string {
    const { firstPaint } = this.options;
    return this.options.watchedBuildFiles
      .map((file) => {
        try {
          return String(fs.statSync(file).mtimeMs);
        } catch {
          return '0';
        }
      })
      .concat(view.key, pagesSignature, firstPaint ? firstPaint.signature(route, view) : '')
      .join(':');
  }

  /** The page with its first paint when it can have one, else the plain page. */
  private page(request: PageRequest, paintable: boolean): Promise<CachedPage> {
    const { firstPaint, cache } = this.options;
    if (!firstPaint || !paintable) return this.plainPage(request);
    const key = `paint:${request.view.key}:${request.location}`;
    // Busy rendering other pages: this one is sent without its first paint (the browser renders
    // it) rather than queueing behind them or taking the API's time.
    if (cache.tooBusyFor(key, request.signature)) return this.plainPage(request);
    return cache.get(key, request.signature, () =>
      cache.rendered(() => this.paintedPage(firstPaint, request)),
    );
  }

  private hintsFor(route: MatchedPage, view: RemotesView): Hint[] {
    return this.options.resourceHints ? this.options.hints.hintsFor(route, view) : [];
  }

  private template(): string {
    return fs.readFileSync(path.join(this.options.shellRoot, 'index.html'), 'utf8');
  }

  /** The template with the page's hints and title, built from what the page is built from. */
  private plainHtml(template: string, route: MatchedPage, signature: string, hints: Hint[]) {
    const head = `${preloadTags(hints)}${titleTag(route.title, this.options.siteTitle())}`;
    return compressed(signature, template.replace('</head>', `${head}</head>`));
  }

  /** Without a first paint a page depends only on its route and the API reads it preloads. */
  private plainPage({ route, view, signature }: PageRequest): Promise<CachedPage> {
    const key = `plain:${view.key}:${route.path}|${pageDataUrls(route).join(',')}`;
    return this.options.cache.get(key, signature, () =>
      this.plainHtml(this.template(), route, signature, this.hintsFor(route, view)),
    );
  }

  /** The page with its first paint rendered in, or the plain page when the render gives none. */
  private async paintedPage(firstPaint: FirstPaintRenderer, request: PageRequest) {
    const { route, view, signature, location } = request;
    const allHints = this.hintsFor(route, view);
    const template = this.template();
    const after = paintedTemplate(template);
    // With a first paint, scripts, reads and stylesheets are preloaded by the page itself once
    // it has painted.
    const reads = [...after.fetch, ...hrefsOf(allHints, 'fetch')];
    // Loading a renderer (once per build) is not part of the render's time.
    firstPaint.load(route, view);
    const started = performance.now();
    const painted =
      (after.entry &&
        firstPaint.render(
          location,
          route,
          view,
          hrefsOf(allHints, 'script'),
          reads,
          hrefsOf(allHints, 'style'),
        )) ||
      null;
    this.options.cache.spent(performance.now() - started);
    if (!painted) return this.plainHtml(template, route, signature, allHints);
    const head = `${this.inlineStylesheets(route, view).join('')}${painted.head}`;
    return compressed(
      signature,
      after.text
        .replace('</head>', `${head}</head>`)
        .replace('<div id="root"></div>', `<div id="root">${painted.root}</div>`),
    );
  }

  /** The stylesheets the first paint needs, inlined where this server has their text. */
  private inlineStylesheets(route: MatchedPage, view: RemotesView): string[] {
    return this.options.hints.firstPaintStylesheets(route, view).map((href) => {
      const css = this.options.stylesheetText(href);
      return css === null
        ? stylesheetTag(href)
        : `<style data-href="${escapeHtml(href)}">${css}</style>`;
    });
  }
}
