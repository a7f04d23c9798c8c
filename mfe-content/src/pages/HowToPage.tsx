import { useState } from 'react';
import { Link } from 'react-router-dom';
import { PageMeta } from '@yield/platform';
import { BackHome } from '../shared/components/BackHome.tsx';
import { GROWTH_OPTIONS, type RiskBadgeLevel, type Track } from '../shared/content/how-to.ts';
import ui from '../shared/components/components.module.css';
import styles from './how-to.module.css';

const TRACKS: { id: Track; label: string }[] = [
  { id: 'tradfi', label: 'TradFi' },
  { id: 'crypto', label: 'Crypto' },
];

/* Badge colours: Very High red, High orange, Medium yellow, Low green, Very Low blue. */
const BADGE_CLASS: Record<RiskBadgeLevel, string | undefined> = {
  'Very High': styles.veryHigh,
  High: styles.high,
  Medium: styles.medium,
  Low: styles.low,
  'Very Low': styles.veryLow,
};

export function RiskBadge({ level }: { level: RiskBadgeLevel }) {
  return (
    <span className={`${styles.badge} ${BADGE_CLASS[level] ?? ''}`} data-risk={level}>
      {level} risk
    </span>
  );
}

export default function HowToPage() {
  const [track, setTrack] = useState<Track>('crypto');
  const options = GROWTH_OPTIONS[track];

  return (
    <main className="page">
      <PageMeta
        title="TradFi vs Crypto"
        description="Ways to grow your money in traditional finance and in crypto, with their risk levels."
      />
      <BackHome />
      <header className={ui.hero}>
        <h1>TradFi versus Crypto</h1>
        <p className={ui.lead}>
          The ways people grow their money, in traditional finance and in crypto, side by side with
          how much can go wrong.
        </p>
      </header>

      <div className={styles.toggleWrap}>
        <div className={styles.toggle} role="group" aria-label="Show options for">
          {TRACKS.map((item) => (
            <button
              key={item.id}
              type="button"
              className={styles.toggleButton}
              aria-pressed={track === item.id}
              onClick={() => setTrack(item.id)}
            >
              {item.label}
            </button>
          ))}
        </div>
      </div>

      <section aria-labelledby="options-title" className={styles.options}>
        <h2 id="options-title" className={styles.optionsTitle}>
          {track === 'crypto'
            ? 'Growing your money in crypto'
            : 'Growing your money in traditional finance'}
        </h2>
        <p className={ui.small}>
          The badge rates how much can go wrong with the approach itself: its complexity, who you
          depend on and how easily a mistake turns into a loss. Asset prices can still move.
        </p>
        <ul className={styles.list} aria-live="polite">
          {options.map((option) => (
            <li key={option.title} className={styles.option}>
              <div className={styles.optionHead}>
                <h3>{option.title}</h3>
                <RiskBadge level={option.risk} />
              </div>
              <p>{option.description}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className={styles.next} aria-labelledby="howto-next-title">
        <h2 id="howto-next-title">Where we fit</h2>
        <p>
          We rank crypto savings accounts, yield-bearing stablecoins and auto-rebalancing vaults by
          what they pay after risk, so you can compare them with the DeFi Base Rate before you
          choose.
        </p>
        <div className={`${ui.buttonRow} ${ui.center}`}>
          <Link to="/options" className="btn btn-primary">
            Compare yields
          </Link>
          <Link to="/risks" className="btn btn-secondary">
            Understand the Risks
          </Link>
        </div>
      </section>
    </main>
  );
}
