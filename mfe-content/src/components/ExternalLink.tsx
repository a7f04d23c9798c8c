import type { ReactNode } from 'react';

interface ExternalLinkProps {
  /** Operator data from site settings; undefined while settings load. */
  href: string | undefined;
  children: ReactNode;
  className?: string;
}

/**
 * Every external destination opens in a new tab without giving it access to this window. Screen
 * reader users are told about the new tab, sighted users see the arrow.
 */
export function ExternalLink({ href, children, className }: ExternalLinkProps) {
  return (
    <a
      href={href}
      className={className}
      target="_blank"
      rel="noopener noreferrer"
      aria-disabled={href ? undefined : true}
    >
      {children}
      <span aria-hidden="true">{'\u00a0↗'}</span>
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}
