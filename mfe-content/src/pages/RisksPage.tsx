import { Link } from 'react-router-dom';
import { PageMeta } from '@yield/platform';
import { BackHome } from '../shared/components/BackHome.tsx';
import { Icon } from '../shared/components/Icon.tsx';
import { RISK_AREAS } from '../shared/content/risks.ts';
import ui from '../shared/components/components.module.css';
import styles from './risks.module.css';

export default function RisksPage() {
  return (
    <main className="page">
      <PageMeta
        title="Risks"
        description="Smart contract, protocol, market and regulatory risks of crypto savings, explained."
      />
      <BackHome />
      <header className={ui.hero}>
        <h1>Understanding the Risks</h1>
        <p className={ui.lead}>
          Every yield comes with risk. Here is what could go wrong, how likely we think it is, and
          what we do to reduce it, in plain words.
        </p>
      </header>

      <section className={styles.summary} aria-labelledby="risk-summary-title">
        <h2 id="risk-summary-title">Risk summary</h2>
        <ul className={styles.bars}>
          {RISK_AREAS.map((area) => (
            <li key={area.id} data-level={area.level}>
              <div className={styles.barHead}>
                <span className={styles.barName}>{area.name}</span>
                <span className={styles.barLevel}>
                  {area.level} <span className={styles.barPercent}>({area.percent}%)</span>
                </span>
              </div>
              <div
                className={styles.track}
                role="img"
                aria-label={`${area.name} risk: ${area.level}, ${area.percent}% on the risk scale`}
              >
                <div
                  className={area.level === 'Medium' ? styles.fillMedium : styles.fillLowMedium}
                  style={{ width: `${area.percent}%` }}
                />
              </div>
            </li>
          ))}
        </ul>
        <p className={ui.small}>
          Levels are our overall assessment of savings spread across established protocols. Each
          yield source has its own profile: its charges are shown in the comparison and on the{' '}
          <Link to="/methodology">methodology page</Link>.
        </p>
      </section>

      <div className={styles.details}>
        {RISK_AREAS.map((area) => (
          <section key={area.id} className={styles.area} aria-labelledby={`${area.id}-title`}>
            <h2 id={`${area.id}-title`}>
              {area.name} Risk <span className={styles.levelTag}>{area.level}</span>
            </h2>
            <p>{area.summary}</p>
            <div className={styles.columns}>
              <div>
                <h3>What can happen</h3>
                <ul>
                  {area.whatCanHappen.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              </div>
              <div>
                <h3>How we reduce it</h3>
                <ul>
                  {area.howWeReduceIt.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              </div>
            </div>
          </section>
        ))}
      </div>

      <section className={ui.warning} aria-labelledby="disclaimer-title">
        <h2 id="disclaimer-title">
          <Icon name="alert" /> Important Disclaimer
        </h2>
        <p>
          Crypto savings are not bank deposits and are not protected by a government deposit
          guarantee scheme. You could lose some or all of the money you deposit. Nothing on this
          site is financial advice.
        </p>
        <ul>
          <li>
            <strong>Only invest what you can afford to lose.</strong> Keep your emergency money
            somewhere you can always reach it.
          </li>
          <li>
            <strong>Understand the risks</strong> of every source before you deposit, including the
            ones on this page.
          </li>
          <li>
            <strong>Stay informed.</strong> Rates and risks change; check the comparison and the
            incident notes regularly.
          </li>
        </ul>
      </section>

      <div className={`${ui.buttonRow} ${ui.center}`}>
        <Link to="/advantages" className="btn btn-primary">
          Our Advantages
        </Link>
        <Link to="/sources-of-yield" className="btn btn-secondary">
          Sources of the Yield
        </Link>
      </div>
    </main>
  );
}
