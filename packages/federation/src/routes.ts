import { matchRoutes } from 'react-router';
import type { ModuleRef, RouteTable } from './pages.ts';

/**
 * Matching a path against the route table outside the shell's router (the site server's resource
 * hints and first paint). It uses react-router's own `matchRoutes`, so a path resolves to the
 * page the shell's router will render: a static segment beats a parameter, a parameter beats a
 * splat, whatever order the remotes declared them in.
 */

/** The shell's own not-found page. */
export const NOT_FOUND_PATH = '*';

/** A path resolved against the route table: the page's pattern, modules, data and parameters. */
export interface MatchedPage {
  /** The page's pattern, or `*` when no page matches. */
  path: string;
  /** The page's title as its remote declares it (null for the not-found page). */
  title: string | null;
  /** Modules the page renders, in order; empty for the shell's own not-found page. */
  modules: ModuleRef[];
  /** API reads the page makes first, with `:param` placeholders (see pageDataUrls). */
  data: string[];
  params: Record<string, string>;
}

const routeObjects = new WeakMap<RouteTable, { id: string; path: string }[]>();

export function matchPageRoute(table: RouteTable, pathname: string): MatchedPage {
  let routes = routeObjects.get(table);
  if (!routes) {
    routes = table.pages.map((page, index) => ({ id: String(index), path: page.path }));
    routeObjects.set(table, routes);
  }
  const match = matchRoutes(routes, pathname)?.at(-1);
  const page = match ? table.pages[Number(match.route.id)] : undefined;
  if (!match || !page) {
    return { path: NOT_FOUND_PATH, title: null, modules: [], data: [], params: {} };
  }
  const params = Object.fromEntries(
    Object.entries(match.params).filter((entry): entry is [string, string] => !!entry[1]),
  );
  return { path: page.path, title: page.title, modules: page.modules, data: page.data, params };
}

/** The API URLs a matched page reads first, with its path parameters filled in. */
export function pageDataUrls(page: { data: string[]; params: Record<string, string> }): string[] {
  return page.data.map((template) =>
    template.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(page.params[name] ?? '')),
  );
}
