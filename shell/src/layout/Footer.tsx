import { Link } from 'react-router-dom';
import { useSiteSettings } from '@yield/platform';
import { ExternalLink } from '@yield/ui';
import { LogoMark, LogoText } from './Logo.tsx';

export function Footer() {
  const settings = useSiteSettings();
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <div className="site-footer__brand">
          <Link to="/" className="logo">
            <LogoMark />
            <LogoText />
            <span className="visually-hidden"> home</span>
          </Link>
          {settings ? <p className="site-footer__slogan">{settings.siteSlogan}</p> : null}
        </div>
        <nav className="site-footer__links" aria-label="Footer">
          <Link to="/learn">Learn</Link>
          <Link to="/privacy-policy">Privacy Policy</Link>
          <Link to="/terms-of-service">Terms of Service</Link>
          <Link to="/cookies-policy">Cookies Policy</Link>
        </nav>
        <div className="site-footer__social">
          {settings ? (
            <>
              <ExternalLink href={settings.socials.x}>
                <span className="visually-hidden">X (Twitter)</span>
                <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
                  <path
                    fill="currentColor"
                    d="M18.2 2.3h3.4l-7.4 8.4 8.7 11.5h-6.8l-5.3-7-6.1 7H1.3l7.9-9L.9 2.3h7l4.8 6.4 5.5-6.4Zm-1.2 17.9h1.9L7 4.2H5l12 16Z"
                  />
                </svg>
              </ExternalLink>
              <ExternalLink href={settings.socials.telegram}>
                <span className="visually-hidden">Telegram</span>
                <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
                  <path
                    fill="currentColor"
                    d="M21.9 4.3 18.7 19.4c-.2 1-.9 1.3-1.7.8l-4.9-3.6-2.3 2.2c-.3.3-.5.5-1 .5l.3-5 9.1-8.2c.4-.4-.1-.6-.6-.2L6.4 13 1.5 11.5c-1-.3-1.1-1 .2-1.5L20.6 2.8c.9-.3 1.6.2 1.3 1.5Z"
                  />
                </svg>
              </ExternalLink>
            </>
          ) : null}
        </div>
      </div>
      <p className="site-footer__copyright">
        © {year} {settings?.siteTitle ?? ''}. All rights reserved.
      </p>
    </footer>
  );
}
