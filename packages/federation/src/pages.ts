/**
 * A remote's pages: the one place a remote says what it serves (`<remote>/src/pages.ts`), and the
 * `pages.json` its build writes beside `remoteEntry.js`. The build derives the remote's exposed
 * modules from it; the shell and the site server read every remote's `pages.json` at run time and
 * build their route tables from them, so a page ships with its remote alone: no shell build, no
 * server restart.
 *
 * No dependencies and no Node or DOM APIs: the shell's synchronous entry reads it (validation is
 * hand-written for that reason: a schema library would weigh more than the shell's own code on
 * the way to the first render), and so do the site server and the build.
 */

import { PAGES_FILE } from './registry.ts';

/**
 * An exposed module: `./RisksPage` is one of this remote's, `mfe_content/LandingHero` one of
 * another remote's (the federation's own `remote/module` form).
 */
export type ModuleSpecifier = `./${string}` | `${string}/${string}`;

/** One page as a remote declares it. */
export interface PageDeclaration {
  /**
   * Route pattern in react-router's syntax: static segments, `:param` (`:param?` optional), a
   * final `*`. The shell and the site server rank patterns as react-router does: a static
   * segment beats a parameter, whichever remote declares them.
   */
  path: string;
  /**
   * What the page is called: the `<title>` the site server sends with a page it has no server
   * markup for, and the link in the remote's standalone harness. The page's own PageMeta takes
   * over once it renders.
   */
  title: string;
  /** The exposed module that renders the page. */
  module?: ModuleSpecifier;
  /** Or the modules that compose it, top to bottom (each its own contained slot). */
  modules?: ModuleSpecifier[];
  /**
   * API reads the page makes as soon as it renders, `:param` filled from the path. The site
   * server preloads them with the HTML so the data arrives with the code, not after it.
   */
  data?: string[];
}

/** What `<remote>/src/pages.ts` default-exports. */
export interface RemotePages {
  pages: PageDeclaration[];
  /**
   * Modules this remote exposes that are no page of its own: parts other remotes' pages compose
   * (the landing hero on `/`).
   */
  sections?: `./${string}`[];
}

/** One exposed module of one remote. */
export interface ModuleRef {
  remote: string;
  /** The exposed name without `./`, as the federation runtime and manifests name it. */
  module: string;
}

/** A page of the route table, read from its remote's `pages.json`. */
export interface PageRoute {
  path: string;
  title: string;
  /** The remote whose `pages.json` declares the page. */
  remote: string;
  /** Modules the page renders, top to bottom. */
  modules: ModuleRef[];
  data: string[];
}

/** One remote's page list as read at run time, or why it could not be read. */
export type RemotePageList =
  { remote: string; pages: PageRoute[] } | { remote: string; error: string };

export interface RouteTable {
  /** Every page of every remote whose list was read, in `remotes.json` order. */
  pages: PageRoute[];
  /**
   * False when a remote's list (or `remotes.json` itself) could not be read: an unknown path may
   * then be one of its pages, so it gets the contained fallback instead of the not-found page.
   */
  complete: boolean;
  /** What went wrong, one line each, for the log. */
  problems: string[];
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const STATIC_SEGMENT = /^[\w\-.~%@!$&'()+,;=]+$/;
const PARAM_SEGMENT = /^:([A-Za-z_]\w*)\??$/;

/** The parameter names of a route pattern, or the reason it is not one the route table takes. */
function pathParams(path: string): string[] | string {
  if (path === '/') return [];
  if (!path.startsWith('/') || path.endsWith('/')) {
    return 'must start with "/" and not end with one';
  }
  const segments = path.slice(1).split('/');
  const params: string[] = [];
  for (const [index, segment] of segments.entries()) {
    const param = PARAM_SEGMENT.exec(segment);
    if (param) params.push(param[1]!);
    else if (segment === '*' && index === segments.length - 1 && index > 0) params.push('*');
    else if (!STATIC_SEGMENT.test(segment)) return `has an invalid segment "${segment}"`;
  }
  return params;
}

function moduleRef(specifier: unknown, owner: string): ModuleRef | null {
  if (typeof specifier !== 'string') return null;
  const [remote, module, ...rest] = specifier.split('/');
  if (rest.length || !remote || !module || !IDENTIFIER.test(module)) return null;
  if (remote === '.') return { remote: owner, module };
  return IDENTIFIER.test(remote) ? { remote, module } : null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parsePage(entry: unknown, owner: string): PageRoute | string {
  if (!isRecord(entry)) return 'is not an object';
  const { path, title, module, modules, data = [] } = entry;
  if (typeof path !== 'string') return '"path" is not a string';
  const params = pathParams(path);
  if (typeof params === 'string') return `path "${path}" ${params}`;
  if (typeof title !== 'string' || !title.trim())
    return `${path}: "title" is not a non-empty string`;
  if ((module === undefined) === (modules === undefined)) {
    return `${path}: needs either "module" or "modules"`;
  }
  const specifiers = module === undefined ? modules : [module];
  if (!Array.isArray(specifiers) || specifiers.length === 0) {
    return `${path}: "modules" is not a non-empty list`;
  }
  const refs: ModuleRef[] = [];
  for (const specifier of specifiers) {
    const ref = moduleRef(specifier, owner);
    if (!ref) return `${path}: "${String(specifier)}" is not "./Module" or "remote/Module"`;
    refs.push(ref);
  }
  if (!Array.isArray(data)) return `${path}: "data" is not a list`;
  for (const url of data) {
    if (typeof url !== 'string' || !url.startsWith('/') || url.startsWith('//')) {
      return `${path}: data "${String(url)}" is not a path on this site`;
    }
    const unknown = [...url.matchAll(/:(\w+)/g)].find(([, name]) => !params.includes(name!));
    if (unknown) return `${path}: data "${url}" names ${unknown[0]}, which the path does not have`;
  }
  return { path, title, remote: owner, modules: refs, data: data as string[] };
}

/**
 * Reads a `pages.json` document of `remote`: a list of pages, or `{ "pages": [...] }`. A document
 * with any invalid entry is refused whole (the error lists every problem): a remote's pages are
 * either all there or all missing, never half of them.
 */
export function parsePages(document: unknown, remote: string): PageRoute[] {
  const entries = Array.isArray(document)
    ? document
    : isRecord(document) && Array.isArray(document.pages)
      ? document.pages
      : null;
  if (!entries) throw new Error('is neither a list of pages nor { "pages": [...] }');
  const pages: PageRoute[] = [];
  const problems: string[] = [];
  for (const [index, entry] of entries.entries()) {
    const page = parsePage(entry, remote);
    if (typeof page === 'string') problems.push(`page ${index + 1}: ${page}`);
    else pages.push(page);
  }
  if (problems.length) throw new Error(problems.join('; '));
  return pages;
}

/**
 * The route table from every remote's page list, in `remotes.json` order. A path two remotes
 * declare goes to the first one (and is reported); a list that could not be read leaves that
 * remote's pages out and the table incomplete.
 */
export function buildRouteTable(lists: RemotePageList[], { complete = true } = {}): RouteTable {
  const pages: PageRoute[] = [];
  const problems: string[] = [];
  const owners = new Map<string, string>();
  for (const list of lists) {
    if ('error' in list) {
      complete = false;
      problems.push(`${list.remote}: ${PAGES_FILE} ${list.error}; its pages are left out`);
      continue;
    }
    for (const page of list.pages) {
      const owner = owners.get(page.path.toLowerCase());
      if (owner) {
        problems.push(`${list.remote}: ${page.path} is already a page of ${owner}; ignored`);
        continue;
      }
      owners.set(page.path.toLowerCase(), list.remote);
      pages.push(page);
    }
  }
  return { pages, complete, problems };
}

/** The exposed names (without `./`) a remote's declaration asks its build to expose. */
export function exposedModules(declared: RemotePages): string[] {
  const names = new Set<string>();
  for (const page of declared.pages) {
    for (const specifier of page.modules ?? (page.module ? [page.module] : [])) {
      if (specifier.startsWith('./')) names.add(specifier.slice(2));
    }
  }
  for (const section of declared.sections ?? []) names.add(section.slice(2));
  return [...names];
}

/** The `pages.json` a remote's build writes. */
export function pagesDocument(declared: RemotePages): { pages: PageDeclaration[] } {
  return { pages: declared.pages };
}
