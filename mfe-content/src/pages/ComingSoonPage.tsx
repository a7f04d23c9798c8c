import { Link, useSearchParams } from 'react-router-dom';
import { PageMeta, useSiteSettings } from '@yield/platform';
import { MailListForm } from '../features/mailing-list/MailListForm.tsx';
import styles from './simple.module.css';
import { ExternalLink } from '@yield/ui';

/** Sources the API accepts: the page name is folded into one, never echoed on the page. */
function notifySource(page: string | null): string {
  const slug = (page ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return slug ? `coming-soon/${slug}` : 'coming-soon';
}

export default function ComingSoonPage() {
  // `page` is read but never displayed (it arrives from links and could be anything).
  const [params] = useSearchParams();
  const source = notifySource(params.get('page'));
  const settings = useSiteSettings();

  return (
    <main className="page">
      <PageMeta title="Coming Soon" description="This page is coming soon." />
      <div className={styles.centerCard}>
        <h1>Coming Soon</h1>
        <p>
          We are still working on this page. Leave your email and we will tell you as soon as it is
          ready.
        </p>
        <MailListForm source={source} buttonLabel="Notify Me" required={false} />
        <div className={styles.links}>
          <ExternalLink arrow href={settings?.socials.x}>
            Follow us on X
          </ExternalLink>
          <Link to="/">Return to Home</Link>
        </div>
      </div>
    </main>
  );
}
