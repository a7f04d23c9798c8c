import { useDeferredValue, useState } from 'react';
import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { PageMeta, strategyContentQuery } from '@yield/platform';
import type { StrategyContent } from '@yield/contract';
import type { StrategySlug } from '@yield/contract/constants';
import { isPresent } from '../../shared/strategies.ts';
import { Allocations } from './Allocations.tsx';
import { DiagramFlow, DiagramModal } from './DiagramModal.tsx';
import { AlertForm } from '../../shared/saver/AlertForm.tsx';
import { EarningsCalculator } from '../../shared/saver/EarningsCalculator.tsx';
import { ExitInfo } from '../../shared/saver/ExitInfo.tsx';
import { Fundamentals } from './Fundamentals.tsx';
import { Liquidity } from './Liquidity.tsx';
import { PageFailed, PageLoading } from '../../shared/PageStates.tsx';
import { Paragraphs } from './Paragraphs.tsx';
import { RiskAnalysis } from './RiskAnalysis.tsx';
import layout from '../../shared/page.module.css';
import styles from './detail.module.css';
import { ExternalLink } from '@yield/ui';

function Fact({ label, value, url }: { label: string; value: string; url: string }) {
  return (
    <div className={styles.fact}>
      <dt>{label}</dt>
      <dd>{url ? <ExternalLink href={url}>{value}</ExternalLink> : value}</dd>
    </div>
  );
}

function StrategyHeader({ content }: { content: StrategyContent }) {
  const showCap = isPresent(content.marketCap);
  const showRank = isPresent(content.rank);
  return (
    <header className={layout.hero} data-section="header">
      <Link to="/options" className={layout.back}>
        <span aria-hidden="true">←</span> All yield options
      </Link>
      <h1 className={styles.title}>{content.name}</h1>
      <p className={layout.lead}>{content.description}</p>
      <div className={styles.heroRow}>
        <ExternalLink
          className="btn btn-primary"
          href={content.investUrl}
          data-testid="deposit-link"
          arrow
        >
          Deposit Now
        </ExternalLink>
        {showCap || showRank ? (
          <dl className={styles.facts}>
            {showCap ? (
              <Fact label="Market Cap" value={content.marketCap} url={content.marketCapUrl} />
            ) : null}
            {showRank ? <Fact label="Rank" value={content.rank} url={content.rankUrl} /> : null}
          </dl>
        ) : null}
      </div>
    </header>
  );
}

function StrategySection({ content }: { content: StrategyContent }) {
  const [diagramOpen, setDiagramOpen] = useState(false);
  return (
    <section className={layout.section} aria-labelledby="strategy-heading" data-section="strategy">
      <h2 id="strategy-heading">Strategy</h2>
      <Paragraphs items={content.strategyContent} />
      <button
        type="button"
        className={styles.diagramButton}
        onClick={() => setDiagramOpen(true)}
        aria-haspopup="dialog"
        data-testid="diagram-open"
      >
        <span className={styles.diagramTitle}>{content.diagram.title}</span>
        <DiagramFlow diagram={content.diagram} detailed={false} />
        <span className={styles.diagramHint}>Open the diagram with step-by-step details</span>
      </button>
      <DiagramModal
        diagram={content.diagram}
        open={diagramOpen}
        onClose={() => setDiagramOpen(false)}
      />
    </section>
  );
}

function TextSection({
  id,
  title,
  items,
}: {
  id: string;
  title: string;
  items: readonly string[];
}) {
  return (
    <section className={layout.section} aria-labelledby={`${id}-heading`} data-section={id}>
      <h2 id={`${id}-heading`}>{title}</h2>
      <Paragraphs items={items} />
    </section>
  );
}

export function StrategyDetail({ slug }: { slug: StrategySlug }) {
  const content = useQuery(strategyContentQuery(slug));
  // The sections below Fundamentals render in a deferred, interruptible pass: React time-slices
  // it, so the first screen paints without one long task for the whole page. Also when the
  // content is there from the start (the page's HTML carries it): the first render, on the server
  // too, stops at Fundamentals.
  const belowTheFold = useDeferredValue<StrategyContent | null | undefined>(content.data, null);

  if (content.isPending) return <PageLoading label="Loading the strategy…" />;

  if (content.isError) {
    return (
      <PageFailed
        title="Strategy"
        description="Strategy detail."
        what="This strategy"
        onRetry={() => void content.refetch()}
      />
    );
  }

  const data = content.data;
  return (
    <main className={`page ${layout.page}`}>
      <PageMeta title={data.pageTitle} description={data.pageDescription} />
      <StrategyHeader content={data} />
      <Fundamentals id={data.id} name={data.name} />
      {belowTheFold ? (
        <>
          <EarningsCalculator ids={[belowTheFold.id]} />
          <ExitInfo id={belowTheFold.id} />
          <AlertForm sourceId={belowTheFold.id} />
          <StrategySection content={belowTheFold} />
          <TextSection
            id="yield-source"
            title="Yield Source"
            items={belowTheFold.yieldSourceContent}
          />
          <TextSection
            id="strategy-limits"
            title="Strategy Limits"
            items={belowTheFold.strategyLimitsContent}
          />
          <Allocations content={belowTheFold} />
          <RiskAnalysis content={belowTheFold} />
          <Liquidity content={belowTheFold} />
        </>
      ) : (
        <div className={layout.pageLoading} aria-hidden="true" />
      )}
    </main>
  );
}
