/**
 * What makes an outbound link of sources.json specific enough to send a saver to: a deposit link
 * opens the very vault or pool (never a listing to search through), an incident link opens a
 * report of that incident (never a profile or a site's front page). The checks are part of the
 * sources.json schema, so an operator sees the reason in GET /api/health (docs/data-sources.md,
 * "Links").
 */

/** Listing pages of a protocol's app: their path names the listing, not one vault or pool. */
const LISTING_PATH = /^\/(?:[a-z0-9-]+\/)?(?:vaults|markets|explore|pools)\/?$/i;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const SOCIAL_HOSTS = new Set(['x.com', 'twitter.com', 'mobile.twitter.com']);

const host = (url: URL) => url.hostname.replace(/^www\./, '');

/** Why a deposit link is not the page of one vault or pool, or null when it is. */
export function depositLinkProblem(link: string): string | null {
  const url = new URL(link);
  if (host(url) === 'app.morpho.org') {
    // A Morpho vault's own page: /<chain>/vault/<address>[/<slug>].
    const [chain, kind, address] = url.pathname.split('/').filter(Boolean);
    if (!chain || kind !== 'vault' || !address || !EVM_ADDRESS.test(address))
      return 'a Morpho deposit link must open the vault itself: https://app.morpho.org/<chain>/vault/<address>';
    return null;
  }
  if (LISTING_PATH.test(url.pathname))
    return 'a deposit link must open the vault or pool itself, not a listing of them';
  if (SOCIAL_HOSTS.has(host(url))) return 'a deposit link must open the provider’s app';
  return null;
}

/** Why an incident link is not a report of one incident, or null when it is. */
export function reportLinkProblem(link: string): string | null {
  const url = new URL(link);
  if (SOCIAL_HOSTS.has(host(url)))
    return /^\/[^/]+\/status\/\d+/.test(url.pathname)
      ? null
      : 'an incident link must open a report, not a profile: link the post itself (/<name>/status/<id>)';
  if (url.pathname === '/' || url.pathname === '')
    return 'an incident link must open a report of the incident, not a site’s front page';
  return null;
}
