import type { ReactNode } from 'react';

export interface ExternalLinkProps {
  /** From site settings; undefined while they load, and then the link waits rather than guesses. */
  href: string | undefined;
  className?: string;
  children: ReactNode;
}

/** A link to another site: new tab, no opener, and says so to screen-reader users. */
export function ExternalLink({ href, className, children }: ExternalLinkProps) {
  if (!href) {
    return (
      <a className={className} aria-disabled="true" role="link">
        {children}
      </a>
    );
  }
  return (
    <a className={className} href={href} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}
