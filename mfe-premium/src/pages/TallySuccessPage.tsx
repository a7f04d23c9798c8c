import { Link } from 'react-router-dom';
import { PageMeta, useSiteSettings } from '@yield/platform';
import styles from './TallySuccessPage.module.css';
import { ExternalLink } from '@yield/ui';

export default function TallySuccessPage() {
  const settings = useSiteSettings();
  return (
    <main className="page">
      <PageMeta
        title="Request Submitted"
        description="Your priority premium access request was submitted."
      />
      <div className={styles.card}>
        <div className={styles.badge} aria-hidden="true">
          <svg viewBox="0 0 24 24" width="30" height="30" focusable="false">
            <path fill="currentColor" d="M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z" />
          </svg>
        </div>
        <h1 className={styles.title}>Thank You!</h1>
        <p className={styles.text}>
          Your priority premium access request has been submitted. We will get back to you within
          24-48 hours.
        </p>
        <div className={styles.actions}>
          <ExternalLink
            href={settings?.externalUrls.premiumRequestForm}
            className="btn btn-primary"
          >
            Submit Another Request
          </ExternalLink>
          <Link to="/" className="btn btn-secondary">
            Back to Home
          </Link>
        </div>
      </div>
    </main>
  );
}
