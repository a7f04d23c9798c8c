import { Link } from 'react-router-dom';
import { PageMeta } from '@yield/platform';
import { BackHome } from '../shared/components/BackHome.tsx';
import { Icon } from '../shared/components/Icon.tsx';
import { FEATURES } from '../shared/content/features.ts';
import ui from '../shared/components/components.module.css';
import styles from './advantages.module.css';

/** The six landing features, each expanded: what it means, why it matters, where to read more. */
export default function AdvantagesPage() {
  return (
    <main className="page">
      <PageMeta
        title="Advantages"
        description="Best yield, no trading, top-notch security, simplicity, instant transactions and self-custody."
      />
      <BackHome />
      <header className={ui.hero}>
        <h1>Advantages</h1>
        <p className={ui.lead}>
          Six reasons savers choose us, and what each one means for your money, including its
          limits.
        </p>
      </header>

      <nav aria-label="Advantages on this page" className={styles.toc}>
        <ul>
          {FEATURES.map((feature) => (
            <li key={feature.id}>
              <a href={`#${feature.id}`}>{feature.title}</a>
            </li>
          ))}
        </ul>
      </nav>

      <div className={styles.list}>
        {FEATURES.map((feature) => (
          <section
            key={feature.id}
            id={feature.id}
            className={styles.item}
            aria-labelledby={`${feature.id}-title`}
          >
            <span className={ui.iconBubble}>
              <Icon name={feature.icon} />
            </span>
            <div>
              <h2 id={`${feature.id}-title`}>{feature.title}</h2>
              <h3>What it means</h3>
              <p>{feature.meaning}</p>
              <h3>Why it matters</h3>
              <p>{feature.whyItMatters}</p>
              {feature.related ? (
                <p>
                  <Link to={feature.related.to}>
                    {feature.related.label} <span aria-hidden="true">→</span>
                  </Link>
                </p>
              ) : null}
            </div>
          </section>
        ))}
      </div>

      <div className={`${ui.buttonRow} ${ui.center}`}>
        <Link to="/sources-of-yield" className="btn btn-primary">
          Sources of the yield
        </Link>
        <Link to="/risks" className="btn btn-secondary">
          Understand the Risks
        </Link>
      </div>
    </main>
  );
}
