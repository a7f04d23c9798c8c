import { useQuery } from '@tanstack/react-query';
import { sourcesQuery } from '@yield/platform';
import type { MetricStatus, Provenance } from '@yield/contract';
import { ExternalLink, ProvenanceLine } from '@yield/ui';
import { findSource } from '../../shared/sources.ts';
import layout from '../../shared/page.module.css';
import styles from './detail.module.css';

/**
 * Where a strategy's figures come from: "Data: DeFiLlama, as of …" for an imported series,
 * "Sample data as of …" while it is still sample, a stale warning with its date, and a link to the
 * public page of the DeFiLlama pool that feeds it (GET /api/sources `feeds`), and the contract
 * read on chain when it has one (a share price, or Liquity's Stability Pool).
 */
export function DataSource({
  id,
  provenance,
  status,
}: {
  id: number;
  provenance: Provenance;
  status: MetricStatus;
}) {
  const sources = useQuery(sourcesQuery);
  const feeds = findSource(sources.data, id)?.feeds ?? [];
  const feed = feeds.find((f) => f.provider === 'defillama');
  const chainFeed = feeds.find((f) => f.provider === 'onchain');
  return (
    <p className={styles.dataSource} data-testid="data-source">
      <ProvenanceLine
        provenance={provenance}
        stale={status === 'stale'}
        staleClassName={layout.staleFlag}
        staleNote="Its figures are those of that day, and it is never marked GREAT while it is stale."
      />
      {chainFeed ? (
        <span data-testid="chain-feed">
          {' '}
          {chainFeed.kind === 'liquity-stability-pool'
            ? `A deposit's gains and losses read on ${chainFeed.chain} from the Stability Pool ${chainFeed.address}.`
            : `Share price read on ${chainFeed.chain} from ${chainFeed.address}.`}{' '}
        </span>
      ) : null}
      {feed?.url ? (
        <ExternalLink href={feed.url} data-testid="feed-link" arrow>
          Its pool on DeFiLlama
        </ExternalLink>
      ) : null}
    </p>
  );
}
