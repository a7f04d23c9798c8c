import { useNavigate } from 'react-router-dom';
import { PageMeta, scrollToSection, useSiteSettings } from '@yield/platform';
import { BackHome } from '../shared/components/BackHome.tsx';
import { Icon } from '../shared/components/Icon.tsx';
import ui from '../shared/components/components.module.css';
import styles from './simple.module.css';

export default function HelpCenterPage() {
  const navigate = useNavigate();
  const email = useSiteSettings()?.siteContactEmail;

  const viewFaqs = () => {
    navigate('/');
    // After 100 ms, smooth-scroll to the FAQ (it keeps looking while the section loads).
    scrollToSection('faq', { smooth: true });
  };

  return (
    <main className="page">
      <PageMeta title="Help Center" description="Answers, support and contact options." />
      <BackHome />
      <header className={ui.hero}>
        <h1>Help Center</h1>
        <p className={ui.lead}>Find an answer, or talk to a person. We are here to help.</p>
      </header>

      <ul className={ui.grid3}>
        <li className={`${ui.card} ${styles.helpCard}`}>
          <span className={ui.iconBubble}>
            <Icon name="help" />
          </span>
          <h2>FAQ</h2>
          <p>Straight answers about fees, withdrawals, safety and where the yield comes from.</p>
          <button type="button" className="btn btn-primary" onClick={viewFaqs}>
            View FAQs
          </button>
        </li>
        <li className={`${ui.card} ${styles.helpCard}`}>
          <span className={ui.iconBubble}>
            <Icon name="chat" />
          </span>
          <h2>Live Chat</h2>
          <p>Chat with our support team in real time, right from the site.</p>
          <span className={styles.comingSoonTag}>Coming Soon</span>
        </li>
        <li className={`${ui.card} ${styles.helpCard}`}>
          <span className={ui.iconBubble}>
            <Icon name="mail" />
          </span>
          <h2>Email Support</h2>
          <p>Write to us about anything, and we&apos;ll respond within 24 hours.</p>
          {email ? (
            <a className={styles.mailLink} href={`mailto:${email}`}>
              {email}
            </a>
          ) : (
            <span className="spinner" aria-label="Loading the support address" role="status" />
          )}
        </li>
      </ul>

      <p className={styles.docNote}>
        Our help documentation is under development. Until it is ready, the FAQ and our support team
        can answer your questions.
      </p>
    </main>
  );
}
