import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { scrollToSection, useHydrated, useSession } from '@yield/platform';
import { HEADER_SCROLL_THRESHOLD_PX, type HeaderVariant } from './chrome-rules.ts';
import { LogoMark, LogoText } from './Logo.tsx';

type Entry =
  | { label: string; kind: 'section'; section: 'how-it-works' | 'faq' }
  | { label: string; kind: 'link'; to: string }
  | { label: string; kind: 'logout' };

function useScrolledPast(threshold: number): boolean {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > threshold);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [threshold]);
  return scrolled;
}

export function Header({ variant }: { variant: HeaderVariant }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const session = useSession();
  const { logOut } = session;
  // The stored token is the browser's: a page the browser hydrates shows the server's header
  // (no session) first, then the saver's, in the render right after.
  const isPremium = useHydrated() && session.isPremium;
  const scrolled = useScrolledPast(HEADER_SCROLL_THRESHOLD_PX);
  const [menuOpen, setMenuOpen] = useState(false);
  // One header per page: a fixed id, the same in the server's markup and the browser's render
  // wherever the header sits in the tree.
  const menuId = 'site-menu';

  // The dropdown closes whenever the page changes.
  useEffect(() => setMenuOpen(false), [pathname]);

  const account: Entry = isPremium
    ? { label: 'Log Out', kind: 'logout' }
    : { label: 'Pricing', kind: 'link', to: '/pricing' };

  const entries: Entry[] =
    variant === 'slim'
      ? [{ label: 'Learn', kind: 'link', to: '/learn' }, account]
      : [
          { label: 'How It Works', kind: 'section', section: 'how-it-works' },
          { label: 'Advantages', kind: 'link', to: '/advantages' },
          { label: 'Sources of the yield', kind: 'link', to: '/sources-of-yield' },
          // Beside the other yield link (docs/decisions.md, "Yield Scanner in the header").
          { label: 'Yield Scanner', kind: 'link', to: '/scanner' },
          { label: 'Learn', kind: 'link', to: '/learn' },
          account,
          { label: 'FAQ', kind: 'section', section: 'faq' },
        ];

  const goHomeTop = () => {
    navigate('/');
    window.scrollTo({ top: 0 });
  };

  const choose = (entry: Entry) => {
    setMenuOpen(false);
    if (entry.kind === 'section') {
      navigate('/');
      scrollToSection(entry.section);
    } else if (entry.kind === 'logout') {
      logOut();
      goHomeTop();
    }
  };

  const renderEntry = (entry: Entry) =>
    entry.kind === 'link' ? (
      <Link
        key={entry.label}
        to={entry.to}
        className="nav-link"
        aria-current={pathname === entry.to ? 'page' : undefined}
        onClick={() => setMenuOpen(false)}
      >
        {entry.label}
      </Link>
    ) : (
      <button
        key={entry.label}
        type="button"
        className={entry.kind === 'logout' ? 'nav-link nav-link--logout' : 'nav-link'}
        onClick={() => choose(entry)}
      >
        {entry.label}
      </button>
    );

  const barClass = [
    'site-header',
    `site-header--${variant}`,
    variant === 'full' && !scrolled ? 'site-header--top' : 'site-header--scrolled',
    menuOpen ? 'site-header--open' : '',
  ].join(' ');

  return (
    <header className={barClass} data-variant={variant}>
      <div className="site-header__inner">
        <a
          className="logo"
          href="/"
          onClick={(event) => {
            event.preventDefault();
            setMenuOpen(false);
            goHomeTop();
          }}
        >
          <LogoMark />
          <LogoText />
          {/* the accessible name starts with the visible site name (label-content-name-mismatch) */}
          <span className="visually-hidden"> home</span>
        </a>
        <nav className="site-nav" aria-label="Main">
          {entries.map(renderEntry)}
        </nav>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span className="menu-toggle__bar" aria-hidden="true" />
          <span className="menu-toggle__bar" aria-hidden="true" />
          <span className="menu-toggle__bar" aria-hidden="true" />
        </button>
      </div>
      <nav id={menuId} className="mobile-menu" aria-label="Main (mobile)" hidden={!menuOpen}>
        {entries.map(renderEntry)}
      </nav>
    </header>
  );
}
