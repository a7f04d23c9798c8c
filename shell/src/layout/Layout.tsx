import { useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Header } from './Header.tsx';
import { Footer } from './Footer.tsx';
import { headerVariant, isFooterHidden } from './chrome-rules.ts';

/**
 * Every navigation to a new path scrolls to the top. The page as loaded is not a navigation: it
 * is on screen (painted by the server) before the app starts, and the reader may have scrolled it.
 */
function ScrollToTopOnPathChange() {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

export function Layout() {
  const { pathname } = useLocation();
  const variant = headerVariant(pathname);
  return (
    <div className={`app app--${variant}`}>
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <ScrollToTopOnPathChange />
      <Header variant={variant} />
      <div id="main-content" className="app-content" tabIndex={-1}>
        <Outlet />
      </div>
      {isFooterHidden(pathname) ? null : <Footer />}
    </div>
  );
}
