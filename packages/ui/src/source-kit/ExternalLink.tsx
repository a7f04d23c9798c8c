import type { AnchorHTMLAttributes, ReactNode } from 'react';

export const NEW_TAB_NOTE = ' (opens in a new tab)';

export interface ExternalLinkProps extends Omit<
  AnchorHTMLAttributes<HTMLAnchorElement>,
  'href' | 'target' | 'rel' | 'children'
> {
  /** Another site's address; undefined while it loads (site settings), and the link then waits. */
  href: string | undefined;
  children: ReactNode;
  /** Shows an arrow after the text (hidden from screen readers, who hear the note instead). */
  arrow?: boolean;
}

/**
 * A link to another site, the one way the site writes one: a new tab, no access to this window
 * (`rel="noopener noreferrer"`), and "(opens in a new tab)" said to screen-reader users. Without
 * an address yet (settings still loading) it is a placeholder anchor, no link until the address
 * arrives, rather than a guess.
 */
export function ExternalLink({ href, children, arrow = false, ...rest }: ExternalLinkProps) {
  if (!href) {
    return (
      <a {...rest} aria-disabled="true">
        {children}
      </a>
    );
  }
  return (
    <a {...rest} href={href} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="visually-hidden">{NEW_TAB_NOTE}</span>
      {arrow ? <span aria-hidden="true">{'\u00a0↗'}</span> : null}
    </a>
  );
}
