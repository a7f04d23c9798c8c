import type { ReactNode } from 'react';
import { PageMeta, useSiteSettings } from '@yield/platform';
import { BackHome } from '../../shared/components/BackHome.tsx';
import { formatDay } from '@yield/ui';
import ui from '../../shared/components/components.module.css';
import styles from './LegalPage.module.css';

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

interface LegalPageProps {
  title: string;
  description: string;
  sections: LegalSection[];
}

/** The contact e-mail from site settings, as a mailto link (never hard-coded). */
export function ContactEmail() {
  const email = useSiteSettings()?.siteContactEmail;
  if (!email) return <span className="muted">our support address (loading)</span>;
  return <a href={`mailto:${email}`}>{email}</a>;
}

/** Shared frame of the legal pages: 'Back to Home', the title, 'Last Updated' = today, sections. */
export function LegalPage({ title, description, sections }: LegalPageProps) {
  const siteTitle = useSiteSettings()?.siteTitle;
  return (
    <main className="page">
      <PageMeta title={title} description={description} />
      <article className={`${ui.prose} ${styles.legal}`}>
        <BackHome />
        <h1>{title}</h1>
        <p className={ui.meta}>
          Last Updated:{' '}
          <time dateTime={new Date().toISOString().slice(0, 10)}>
            {formatDay(new Date(), 'long')}
          </time>
        </p>
        {siteTitle ? (
          <p className={ui.small}>
            In this document, &quot;we&quot;, &quot;us&quot; and &quot;our&quot; mean {siteTitle}.
          </p>
        ) : null}
        <nav aria-label="Sections" className={styles.toc}>
          <ol>
            {sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`}>{section.title}</a>
              </li>
            ))}
          </ol>
        </nav>
        {sections.map((section, index) => (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`}>
            <h2 id={`${section.id}-title`}>
              {index + 1}. {section.title}
            </h2>
            {section.body}
          </section>
        ))}
        <p className={styles.bottomLink}>
          <BackHome />
        </p>
      </article>
    </main>
  );
}
