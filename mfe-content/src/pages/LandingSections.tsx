import { Link } from 'react-router-dom';
import { Accordion } from '../shared/components/Accordion.tsx';
import { Icon, type IconName } from '../shared/components/Icon.tsx';
import { FEATURES } from '../shared/content/features.ts';
import { FAQ_ITEMS } from '../shared/content/faq.tsx';
import styles from './landing.module.css';

const STEPS = [
  {
    title: 'Create Your Account',
    text: 'Sign up with your email and connect the wallet you already use. No credit card, no paperwork.',
  },
  {
    title: 'Make Your First USDC Deposit',
    text: 'Send USDC to the contract address shown in your account. It is deposited into the vault in your name.',
  },
  {
    title: 'Watch Your Money Grow',
    text: 'Your balance earns yield from several protocols, rebalanced towards the best risk-adjusted rates.',
  },
  {
    title: 'Enjoy Financial Freedom',
    text: 'Withdraw whenever you like, with no penalties. The only fee is 0.5% of the yield earned.',
  },
];

/* Sample rows of the phone illustration; illustrative, not account data. */
const PHONE_ROWS: { label: string; detail: string; amount: string; icon: IconName }[] = [
  { label: 'Deposit', detail: 'USDC from your wallet', amount: '+$1,000.00', icon: 'arrowDown' },
  { label: 'Auto-Save', detail: 'Weekly, every Monday', amount: '+$50.00', icon: 'refresh' },
  { label: 'Growth', detail: 'Yield this month', amount: '+$31.27', icon: 'trendingUp' },
];

const AUDITS = [
  {
    title: 'Smart contract audit',
    text: 'An independent security firm reviewed the vault contracts line by line for bugs, unsafe permissions and ways funds could be locked or drained.',
  },
  {
    title: 'Security and economic review',
    text: 'A second independent firm reviewed how the vault moves funds between protocols, what happens under market stress, and the controls around upgrades.',
  },
];

function Features() {
  return (
    <section id="features" className={styles.band} aria-labelledby="features-title">
      <div className={`${styles.inner} ${styles.centered}`}>
        <h2 id="features-title" className={styles.sectionTitle}>
          Best Reward Ratio on the Market
        </h2>
        <p className={styles.sectionIntro}>
          We compare yields after risk, not before. What that means for your savings:
        </p>
        <ul className={styles.featureGrid}>
          {FEATURES.map((feature) => (
            <li key={feature.id} className={styles.featureCard}>
              <span className={styles.iconBubble}>
                <Icon name={feature.icon} />
              </span>
              <h3>{feature.title}</h3>
              <p>{feature.summary}</p>
            </li>
          ))}
        </ul>
        <Link to="/advantages" className={styles.textLink}>
          More about our advantages <span aria-hidden="true">→</span>
        </Link>
      </div>
    </section>
  );
}

function PhoneMockup() {
  return (
    <figure
      className={styles.phone}
      aria-label="Illustration of the savings app, with sample figures that are not real data"
      title="Illustration with sample figures"
    >
      <div className={styles.phoneScreen}>
        <div className={styles.phoneNotch} aria-hidden="true" />
        <p className={styles.phoneLabel}>Balance</p>
        <p className={styles.phoneBalance}>$8,240.17</p>
        <span className={styles.sampleTagLight}>Illustrative</span>
        <ul className={styles.phoneRows}>
          {PHONE_ROWS.map((row) => (
            <li key={row.label} className={styles.phoneRow}>
              <span className={styles.phoneRowIcon}>
                <Icon name={row.icon} size={18} />
              </span>
              <span className={styles.phoneRowText}>
                <strong>{row.label}</strong>
                <span>{row.detail}</span>
              </span>
              <span className={styles.phoneAmount}>{row.amount}</span>
            </li>
          ))}
        </ul>
        {/* Part of the picture, not controls: disabled so nobody mistakes them for real actions. */}
        <div className={styles.phoneButtons}>
          <button type="button" disabled tabIndex={-1} className={styles.phoneDeposit}>
            Deposit
          </button>
          <button type="button" disabled tabIndex={-1} className={styles.phoneWithdraw}>
            Withdraw
          </button>
        </div>
      </div>
      <figcaption className={styles.sampleCaption}>
        Illustrative example, not real account data.
      </figcaption>
    </figure>
  );
}

function HowItWorks() {
  return (
    <section
      id="how-it-works"
      className={`${styles.band} ${styles.bandMuted}`}
      aria-labelledby="how-title"
    >
      <div className={`${styles.inner} ${styles.howGrid}`}>
        <div>
          <h2 id="how-title" className={styles.sectionTitle}>
            How It Works
          </h2>
          <p className={styles.sectionIntroLeft}>Four steps from sign-up to earning.</p>
          <ol className={styles.steps}>
            {STEPS.map((step, index) => (
              <li key={step.title} className={styles.step}>
                <span className={styles.stepNumber} aria-hidden="true">
                  {index + 1}
                </span>
                <div>
                  <h3>{step.title}</h3>
                  <p>{step.text}</p>
                </div>
              </li>
            ))}
          </ol>
          <Link to="/subscribe" className="btn btn-primary">
            Get Started
          </Link>
        </div>
        <PhoneMockup />
      </div>
    </section>
  );
}

function Audit() {
  return (
    <section id="audit" className={styles.band} aria-labelledby="audit-title">
      <div className={`${styles.inner} ${styles.centered}`}>
        <h2 id="audit-title" className={styles.sectionTitle}>
          Audited by Two Independent Security Firms
        </h2>
        <p className={styles.sectionIntro}>
          Before any deposit reaches the vault, its contracts were reviewed from two angles. Audits
          lower the risk of a bug; they cannot rule it out, which is why deposits are also covered
          by a mutual cover provider.
        </p>
        <ul className={styles.auditGrid}>
          {AUDITS.map((audit) => (
            <li key={audit.title} className={styles.auditCard}>
              <span className={styles.iconBubble}>
                <Icon name="shield" />
              </span>
              <h3>{audit.title}</h3>
              <p>{audit.text}</p>
            </li>
          ))}
        </ul>
        <Link to="/coming-soon?page=Audit%20Reports" className="btn btn-secondary">
          View Audit Reports
        </Link>
      </div>
    </section>
  );
}

function Faq() {
  return (
    <section id="faq" className={`${styles.band} ${styles.bandMuted}`} aria-labelledby="faq-title">
      <div className={`${styles.inner} ${styles.centered}`}>
        <h2 id="faq-title" className={styles.sectionTitle}>
          Frequently Asked Questions
        </h2>
        <p className={styles.sectionIntro}>Straight answers to what savers ask us most.</p>
        <Accordion items={FAQ_ITEMS} />
      </div>
    </section>
  );
}

function Closing() {
  return (
    <section className={styles.closing} aria-labelledby="closing-title">
      <div className={`${styles.inner} ${styles.centered}`}>
        <h2 id="closing-title" className={styles.closingTitle}>
          Make your savings work as hard as you do
        </h2>
        <p className={styles.closingText}>
          USDC savings spread across proven protocols, ranked by what they pay after risk.
        </p>
        <div className={styles.heroButtonsCenter}>
          <Link to="/subscribe" className={`btn ${styles.closingPrimary}`}>
            Create Your Account
          </Link>
          <Link to="/advantages" className={`btn ${styles.closingSecondary}`}>
            Learn More<span className="visually-hidden"> about our advantages</span>
          </Link>
        </div>
        <p className={styles.closingNote}>No credit card required.</p>
      </div>
    </section>
  );
}

/** Below the comparison on `/`: features, how-it-works, audit, FAQ and the closing call to action. */
export default function LandingSections() {
  return (
    <div className={styles.sections}>
      <Features />
      <HowItWorks />
      <Audit />
      <Faq />
      <Closing />
    </div>
  );
}
