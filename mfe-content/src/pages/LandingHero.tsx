import { Link } from 'react-router-dom';
import { PageMeta, scrollToSection, useSiteSettings } from '@yield/platform';
import { Icon } from '../shared/components/Icon.tsx';
import styles from './landing.module.css';

/* Sample figures for the illustration only (every hero figure is illustrative). */
const SAMPLE = {
  balance: '$12,480.32',
  goalName: 'Emergency fund',
  goalSaved: '$12,480',
  goalTarget: '$20,000',
  goalPercent: 62,
  autoSave: '$50 / week',
};

function PigiCard() {
  return (
    <figure
      className={styles.pigiFigure}
      aria-label="Illustration of a savings account, with sample figures that are not real data"
      title="Illustration with sample figures"
    >
      <div className={styles.coin} aria-hidden="true">
        <span className={styles.coinFace}>$</span>
      </div>
      <div className={styles.pigiCard}>
        <div className={styles.pigiTop}>
          <p className={styles.pigiTitle}>Your pigi</p>
          <span className={styles.sampleTag}>Illustrative</span>
        </div>
        <p className={styles.pigiLabel}>Total balance</p>
        <p className={styles.pigiBalance}>{SAMPLE.balance}</p>
        <div className={styles.goal}>
          <div className={styles.goalHead}>
            <span>Goal: {SAMPLE.goalName}</span>
            <span>{SAMPLE.goalPercent}%</span>
          </div>
          <div className={styles.goalTrack} aria-hidden="true">
            <div className={styles.goalFill} style={{ width: `${SAMPLE.goalPercent}%` }} />
          </div>
          <p className={styles.goalNote}>
            {SAMPLE.goalSaved} of {SAMPLE.goalTarget}
          </p>
        </div>
        <div className={styles.pigiTiles}>
          <div className={styles.tile}>
            <Icon name="refresh" size={20} />
            <span className={styles.tileLabel}>Auto-save</span>
            <span className={styles.tileValue}>{SAMPLE.autoSave}</span>
          </div>
          <div className={`${styles.tile} ${styles.tileProtected}`}>
            <Icon name="shield" size={20} />
            <span className={styles.tileLabel}>Protected</span>
            <span className={styles.tileValue}>Audited &amp; covered</span>
          </div>
        </div>
        {/* Part of the picture, not a control: disabled so nobody mistakes it for a real action. */}
        <button type="button" className={styles.addFunds} disabled tabIndex={-1}>
          <Icon name="plus" size={18} /> Add Funds
        </button>
      </div>
      <figcaption className={styles.sampleCaption}>
        Illustrative example, not real account data.
      </figcaption>
    </figure>
  );
}

/** The top of `/`: owns the home page's title, description, canonical and social tags. */
export default function LandingHero() {
  const settings = useSiteSettings();
  return (
    <section className={styles.hero} aria-labelledby="landing-hero-title">
      <PageMeta
        title={settings?.siteSlogan ?? 'Global Yield Leaderboard'}
        description={
          settings?.siteDescription ??
          'Crypto yield sources ranked by risk-adjusted 30-day APR against the DeFi Base Rate.'
        }
        social
      />
      <div className={styles.heroInner}>
        <div className={styles.heroText}>
          <h1
            id="landing-hero-title"
            className={styles.heroTitle}
            aria-busy={settings ? undefined : true}
          >
            {settings?.siteHeader ?? '\u00a0'}
          </h1>
          <p className={styles.heroSlogan}>{settings?.siteSlogan ?? '\u00a0'}</p>
          <p className={styles.heroLead}>
            Every yield source ranked by what it paid over the last 30 days after its risks are
            charged for, side by side with the DeFi Base Rate. Then save with the provider you
            choose, on their own site.
          </p>
          <div className={styles.heroButtons}>
            <Link to="/options" className="btn btn-primary">
              Get Started
            </Link>
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => scrollToSection('how-it-works', { delay: 0, smooth: true })}
            >
              View Demo
            </button>
          </div>
          <ul className={styles.heroPoints}>
            <li>
              <Icon name="check" size={18} /> USDC only, 0.5% fee on generated yield
            </li>
            <li>
              <Icon name="check" size={18} /> Withdraw any time, no penalties
            </li>
            <li>
              <Icon name="check" size={18} /> You keep your keys
            </li>
          </ul>
        </div>
        <PigiCard />
      </div>
    </section>
  );
}
