import { Link } from 'react-router-dom';
import { PageMeta } from '@yield/platform';
import { BackHome } from '../shared/components/BackHome.tsx';
import { IconCard } from '../shared/components/IconCard.tsx';
import ui from '../shared/components/components.module.css';
import styles from './simple.module.css';

const PLANNED_TOPICS = [
  {
    title: 'Crypto savings from zero',
    text: 'Wallets, stablecoins and your first deposit, step by step.',
  },
  {
    title: 'Reading a yield',
    text: 'APR versus APY, real versus incentive yield, and why 30 days matter.',
  },
  { title: 'The risk-adjusted APR', text: 'How each risk is charged for, with worked examples.' },
  {
    title: 'Stablecoins explained',
    text: 'How USDC and other dollar tokens hold their value, and when they do not.',
  },
  {
    title: 'Keeping your keys safe',
    text: 'Recovery phrases, hardware wallets and avoiding phishing.',
  },
  { title: 'Crypto yield and taxes', text: 'What to record and questions to ask a tax adviser.' },
];

export default function LearnPage() {
  return (
    <main className="page">
      <PageMeta
        title="Learn"
        description="Guides on crypto savings, yield and risk are coming soon."
      />
      <BackHome />
      <header className={ui.hero}>
        <span className={ui.eyebrow}>Learn</span>
        <h1>Coming Soon</h1>
        <p className={ui.lead}>
          We are writing plain-language guides on crypto savings, yield and risk. Here is what is on
          the way.
        </p>
      </header>
      <section aria-labelledby="topics-title" className={ui.section}>
        <h2 id="topics-title" className={ui.centered}>
          Planned topics
        </h2>
        <ul className={ui.grid3}>
          {PLANNED_TOPICS.map((topic) => (
            <IconCard key={topic.title} icon="book" title={topic.title} text={topic.text} />
          ))}
        </ul>
      </section>
      <div className={styles.closing}>
        <p>In the meantime, these pages answer the most common questions:</p>
        <div className={`${ui.buttonRow} ${ui.center}`}>
          <Link to="/sources-of-yield" className="btn btn-secondary">
            Sources of the yield
          </Link>
          <Link to="/risks" className="btn btn-secondary">
            Understand the Risks
          </Link>
          <Link to="/subscribe" className="btn btn-primary">
            Get notified
          </Link>
        </div>
      </div>
    </main>
  );
}
