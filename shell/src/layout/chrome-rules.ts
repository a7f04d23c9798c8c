/** Which header and footer a path gets (slim or full header, footer shown or hidden). */

export type HeaderVariant = 'slim' | 'full';

const SLIM_HEADER_PREFIXES = ['/strategy/', '/strategy-detail/', '/options/'];

export function headerVariant(pathname: string): HeaderVariant {
  return SLIM_HEADER_PREFIXES.some((prefix) => pathname.startsWith(prefix)) ? 'slim' : 'full';
}

export const FOOTER_HIDDEN_PATHS = [
  '/about',
  '/blog',
  '/privacy-policy',
  '/terms-of-service',
  '/cookies-policy',
  '/help-center',
  '/security',
  '/risks',
] as const;

export function isFooterHidden(pathname: string): boolean {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (FOOTER_HIDDEN_PATHS as readonly string[]).includes(normalized);
}

/** The header becomes a bar after 20 px; the menu collapses under 768 px. */
export const HEADER_SCROLL_THRESHOLD_PX = 20;
export const MOBILE_MENU_BREAKPOINT_PX = 768;
