import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { PageMeta } from '@yield/platform';
import { BackHome } from '../shared/components/BackHome.tsx';
import type { IconName } from '../shared/components/Icon.tsx';
import { IconCard } from '../shared/components/IconCard.tsx';
import ui from '../shared/components/components.module.css';
import styles from './pages.module.css';

const BENEFITS: { title: string; icon: IconName; text: string }[] = [
  {
    title: 'Vault',
    icon: 'box',
    text: 'One USDC vault built on the ERC4626 standard. Your deposit becomes vault shares whose value grows as yield comes in, and you can redeem them at any time.',
  },
  {
    title: 'Diversification',
    icon: 'pie',
    text: 'Deposits are spread across several established protocols and rebalanced as rates change, so no single protocol decides the fate of your savings.',
  },
  {
    title: 'DeFAI Scanner',
    icon: 'search',
    text: 'An automated scanner watches yields across pools and protocols around the clock and flags where the best risk-adjusted rates are moving.',
  },
];

export default function VaultPage() {
  // This page opens at the top, even when reached from a scrolled page.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, []);

  return (
    <main className="page">
      <PageMeta
        title="Yield Generation Excellence"
        description="Why our vaults lead on reward-to-risk: diversification across protocols and a DeFAI scanner for the best yields."
      />
      <BackHome label="Back" />
      <header className={ui.hero}>
        <h1>Yield Generation Excellence</h1>
        <p className={ui.lead}>
          Higher yield is easy to find. Higher yield for the risk you take is what we build for.
        </p>
      </header>

      <section className={styles.ratioBox} aria-labelledby="ratio-title">
        <h2 id="ratio-title">Why the reward-to-risk ratio comes first</h2>
        <p>
          Two sources paying 8% a year are not equal if one can lose a quarter of its deposits in a
          bad week. We charge every source for the risks it carries (volatile returns, incentive
          tokens that may stop, smart contract safety, how quickly you can exit, its size and recent
          outflows) and rank what is left: the risk-adjusted 30-day APR.
        </p>
        <p>
          The benchmark is the DeFi Base Rate, the average return of the top DeFi lending protocols,
          run through the same formula. A source earns its place in the vault only when it pays more
          than that benchmark for the risk it adds.
        </p>
        <p>
          <Link to="/methodology">See exactly how the ratio is computed</Link>
        </p>
      </section>

      <section className={ui.section} aria-labelledby="benefits-title">
        <h2 id="benefits-title" className="visually-hidden">
          What the vault gives you
        </h2>
        <ul className={ui.grid3}>
          {BENEFITS.map((benefit) => (
            <IconCard
              key={benefit.title}
              icon={benefit.icon}
              title={benefit.title}
              text={benefit.text}
            />
          ))}
        </ul>
      </section>

      <div className={`${ui.buttonRow} ${ui.center}`}>
        <Link to="/sources-of-yield" className="btn btn-primary">
          Learn About Our Yield Sources
        </Link>
        <Link to="/risks" className="btn btn-secondary">
          Understand the Risks
        </Link>
      </div>
    </main>
  );
}
