/**
 * The first paint's contract between the site server, the shell and the remotes (no runtime
 * imports: the site server reads it too). See first-paint.ts for the browser side.
 *
 * The site server asks the shell and the remote that owns a page's first module for their markup
 * in its initial state (the state the browser would render first, with the site settings already
 * known) and sends it inside the page's HTML. The browser paints the page before any JavaScript
 * has run; the shell renders over it once it starts and keeps the module's server markup in place
 * until the module itself has loaded.
 */
import type { SiteSettings } from '@yield/contract';
/** `<script type="application/json">` holding the data the server markup was rendered with. */
export const FIRST_PAINT_DATA_ID = 'yield-first-paint';
/** Attribute naming the module (`remote/Module`) whose server markup an element holds. */
export const FIRST_PAINT_ATTR = 'data-first-paint';
/** Marks `<head>` tags the server added for the page (title, description); the app owns them after. */
export const FIRST_PAINT_HEAD_ATTR = 'data-first-paint-head';

/**
 * Marks the inline script that starts the app once the server's first paint is on screen: it
 * preloads the page's `preload` scripts and `fetch` reads, then adds the entry script named by
 * its `data-src`. A page sent painted carries this instead of a `<script defer>` for the entry,
 * so that no request and no script runs ahead of the paint.
 */
export const AFTER_PAINT_ATTR = 'data-after-paint';

/**
 * The inline script's text (constant: the site server allows exactly this script by its hash in
 * the Content-Security-Policy). It starts once the browser reports the first contentful paint
 * (presented on screen, not only drawn), or a frame later where paint timing is not supported,
 * and after a second at most. A hidden tab never paints: there it starts at once. It adds the
 * preloads and the entry four at a time, one task each: a phone took 50-100 ms (4x CPU) to add a
 * strategy page's 27 in one task, a task right after the first paint that counted in full towards
 * the page's Total Blocking Time (docs/performance.md, "The shell's start, task by task").
 */
export const AFTER_PAINT_SCRIPT =
  '(function(d){var s=d.currentScript,t=0,q=[];function l(h,a){var e=d.createElement("link");' +
  'e.rel="preload";e.as=a;e.href=h;if(a=="fetch")e.crossOrigin="anonymous";q.push(e)}' +
  'function add(){var f=d.createDocumentFragment();q.splice(0,4).forEach(function(e){f.appendChild(e)});' +
  'd.head.appendChild(f);if(q.length)setTimeout(add,0)}' +
  `function go(){if(t)return;t=1;var p={};try{p=JSON.parse(d.getElementById("${FIRST_PAINT_DATA_ID}")` +
  '.textContent)}catch(x){}(p.fetch||[]).forEach(function(h){l(h,"fetch")});' +
  '(p.styles||[]).forEach(function(h){l(h,"style")});(p.preload||[]).forEach(function(h){l(h,"script")});var e=d.createElement("script");' +
  'e.src=s.getAttribute("data-src");q.push(e);add()}' +
  'if(d.hidden)go();else{var P=window.PerformanceObserver;' +
  'if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0)' +
  'new P(function(x,o){if(x.getEntriesByName("first-contentful-paint").length){o.disconnect();setTimeout(go,0)}})' +
  '.observe({type:"paint",buffered:true});' +
  'else requestAnimationFrame(function(){setTimeout(go,0)});setTimeout(go,1000)}' +
  '})(document)';

/** What the server rendered the first paint with. */
export interface FirstPaintData {
  settings: SiteSettings;
  /**
   * Scripts to preload once the first paint is on screen (the page's shell, remote entry and
   * module chunks): fetched early, but never ahead of the paint.
   */
  preload?: string[];
  /**
   * Reads to start once the first paint is on screen (the route table's page lists, the settings
   * the app refreshes, page data not embedded): fetched early, but never ahead of the paint.
   */
  fetch?: string[];
  /**
   * Stylesheets to preload once the first paint is on screen: the page's modules' CSS, which their
   * chunks load before they render (the paint's own is inline in the page).
   */
  styles?: string[];
  /**
   * The API answers the page reads first (its route table's `data`), keyed by their path
   * (`/api/sources`, `/api/strategy-content/lido`), read from the API in the server's process:
   * the server markup shows them, and the browser starts from them instead of asking again.
   */
  data?: Record<string, unknown>;
}

/** What a server renderer is given for one page. */
export interface FirstPaintContext extends FirstPaintData {
  /** The page's path, e.g. `/options`. */
  path: string;
  /** The page's pattern in the route table, e.g. `/options/:id` (its modules read the params). */
  pattern?: string;
}

/**
 * A remote's server renderer (`dist/server/render.cjs`, export `render`): the markup of one
 * exposed module in its initial state, or null when the module has no server markup.
 */
export type RenderModule = ((module: string, context: FirstPaintContext) => string | null) & {
  /**
   * Modules whose markup shows the page's first data: the server gives them `context.data` and
   * embeds it for the browser. The others paint their initial state without it, and the browser
   * fetches as usual.
   */
  withData?: readonly string[];
  /**
   * Modules the browser hydrates (adopts their server markup with `hydrateRoot`) instead of
   * rendering them again over it, when they are a page's only module. Their first browser render
   * must match the server's markup (browser-only state applied after it, see `useHydrated`).
   */
  hydrate?: readonly string[];
};

/** The page a path resolved to in the route table: its modules, top to bottom. */
export interface FramePage {
  modules: { remote: string; module: string }[];
}

/**
 * The shell's server renderer (`shell/dist/server/render.cjs`, export `renderFrame`): the whole
 * page (header, footer, every slot of `page`, or the not-found page when null) with the given
 * modules' markup in their slots.
 */
export type RenderFrame = (
  context: FirstPaintContext,
  modules: Record<string, string>,
  page: FramePage | null,
  /**
   * Keys (`firstPaintKey`) of the modules in `modules` the browser hydrates: their markup goes
   * in their slot's Suspense boundary as its content, and the whole page is marked for
   * hydration (HYDRATING_ATTR). The others stay inert copies the app renders over.
   */
  hydrate?: readonly string[],
) => string;

/**
 * Marks the server's frame of a page the browser hydrates (on the element that also carries
 * FIRST_PAINT_ATTR); the app removes both once the page's module has hydrated.
 */
export const HYDRATING_ATTR = 'data-hydrating';

export function firstPaintKey(remote: string, module: string): string {
  return `${remote}/${module}`;
}
