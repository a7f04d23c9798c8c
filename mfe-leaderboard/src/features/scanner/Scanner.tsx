/**
 * The yield scanner (/scanner): every DeFiLlama pool ranked by risk-adjusted APR (method
 * rapool-v3, GET /api/scanner), filtered from the URL, each pool compared with the DeFi Base
 * Rate of its kind. Without premium the API answers the first SCANNER_TEASER_SIZE pools and the
 * page shows the call to action; with the session's premium token every pool loads page by page
 * as the table scrolls, and the matches can be downloaded as CSV.
 */
import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import {
  baseRatesQuery,
  scannerCsvMutation,
  scannerPagesQuery,
  useSession,
  type ScannerFilters,
} from '@yield/platform';
import { POOL_METHOD_VERSION, SCANNER_MAX_LIMIT } from '@yield/contract/constants';
import { formatApr, formatCount, formatDay } from '@yield/ui';
import { ScannerFiltersForm } from './ScannerFiltersForm.tsx';
import { ScannerTable, type BaseRateOfKind } from './ScannerTable.tsx';
import { filtersFromSearch, searchFromFilters } from './scanner-params.ts';
import pageIntro from '../../shared/page-intro.module.css';
import styles from './scanner.module.css';

function describe(filters: ScannerFilters): string {
  const parts = [
    filters.asset,
    filters.stablecoin === undefined ? null : filters.stablecoin ? 'stablecoin' : 'crypto',
    'pools',
    filters.chain ? `on ${filters.chain}` : null,
    filters.project ? `of ${filters.project}` : null,
  ];
  return parts.filter(Boolean).join(' ');
}

function downloadText(text: string, filename: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked once the browser has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function Scanner() {
  const [search, setSearch] = useSearchParams();
  const filters = filtersFromSearch(search);
  const { token, isPremium } = useSession();
  const premiumToken = isPremium ? token : null;
  const pages = useInfiniteQuery(scannerPagesQuery(filters, premiumToken));
  const baseRates = useQuery(baseRatesQuery).data;
  const csv = useMutation(scannerCsvMutation());

  const answers = pages.data?.pages ?? [];
  const first = answers[0];
  const items = answers.flatMap((answer) => answer.items);
  const total = first?.total ?? 0;
  const teaser = first?.teaser ?? !isPremium;
  const base: BaseRateOfKind = {
    stablecoin:
      baseRates && baseRates.status.stablecoin !== 'insufficient_data'
        ? baseRates.baserateRiskAdjustedStable
        : null,
    crypto:
      baseRates && baseRates.status.defi !== 'insufficient_data'
        ? baseRates.baserateRiskAdjustedDefi
        : null,
  };
  const what = describe(filters);

  const apply = (next: ScannerFilters) => setSearch(searchFromFilters(next));
  const loadMore = () => {
    if (pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
  };

  return (
    <div className={styles.scanner}>
      <header className={pageIntro.intro}>
        <h1 className={pageIntro.title}>Yield Scanner</h1>
        <p className={styles.lead}>
          Every pool DeFiLlama tracks, ranked by risk-adjusted APR: what the pool can be expected to
          pay over the next 30 days (not a launch spike), minus a charge for each loss its APY does
          not show, compared with the DeFi Base Rate of its kind.{' '}
          <Link to="/methodology#pools-title">How the charges work</Link>
        </p>
      </header>

      <ScannerFiltersForm key={search.toString()} filters={filters} onApply={apply} />

      <div className={styles.summary}>
        <p role="status" aria-live="polite" className={styles.count}>
          {pages.isPending
            ? 'Loading pools…'
            : pages.isError
              ? null
              : total === 0
                ? `No ${what} match these filters.`
                : `${formatCount(total)} ${what} · showing ${formatCount(items.length)}`}
        </p>
        {base.stablecoin !== null || base.crypto !== null ? (
          <p className={styles.baseNote}>
            Risk-adjusted DeFi Base Rate: stablecoins{' '}
            {base.stablecoin === null ? 'N/A' : formatApr(base.stablecoin)}, crypto{' '}
            {base.crypto === null ? 'N/A' : formatApr(base.crypto)}
          </p>
        ) : null}
        {/* Under the form, with the list it describes: it arrives with the list, so nothing on
            screen moves when it does (the title block and form are painted by the server). */}
        {first ? (
          <p className={pageIntro.sampleNote} data-testid="scanner-data-note">
            {first.sample ? 'Sample data' : 'Data'}
            {first.asOf ? (
              <>
                {' as of '}
                <time dateTime={first.asOf}>{formatDay(first.asOf.slice(0, 10))}</time>
              </>
            ) : null}
            {first.sample ? ': realistic examples, not live market figures.' : null} Method{' '}
            <code>{POOL_METHOD_VERSION}</code>.
          </p>
        ) : null}
        {isPremium && !teaser && total > 0 ? (
          <button
            type="button"
            className={styles.csvButton}
            disabled={csv.isPending}
            onClick={() =>
              csv.mutate(filters, {
                onSuccess: (text) =>
                  downloadText(text, `pigi-scanner-${(first?.asOf ?? '').slice(0, 10)}.csv`),
              })
            }
          >
            {csv.isPending
              ? 'Preparing CSV…'
              : `Download CSV${total > SCANNER_MAX_LIMIT ? ` (top ${SCANNER_MAX_LIMIT})` : ''}`}
          </button>
        ) : null}
      </div>
      {csv.isError ? (
        <p role="alert" className={styles.error}>
          {csv.error.message}
        </p>
      ) : null}

      {pages.isError ? (
        <div role="alert" className={styles.error}>
          <p>The pools could not be loaded: {pages.error.message}</p>
          <button type="button" className={styles.applyButton} onClick={() => void pages.refetch()}>
            Try again
          </button>
        </div>
      ) : items.length > 0 ? (
        <ScannerTable
          items={items}
          total={total}
          base={base}
          caption={`${what} ranked by ${filters.sort === 'riskAdjusted' ? 'risk-adjusted APR' : filters.sort === 'apy' ? 'APY' : 'TVL'}`}
          onNearEnd={loadMore}
        />
      ) : null}

      {pages.hasNextPage ? (
        <button
          type="button"
          className={styles.moreButton}
          onClick={loadMore}
          disabled={pages.isFetchingNextPage}
        >
          {pages.isFetchingNextPage ? 'Loading more pools…' : 'Load more pools'}
        </button>
      ) : null}

      {teaser && total > items.length ? (
        <aside className={styles.cta} aria-labelledby="scanner-cta-title" data-testid="scanner-cta">
          <h2 id="scanner-cta-title">See all {formatCount(total)} pools with Premium</h2>
          <p>
            You are seeing the top {items.length} {what}. Premium shows every pool for any filter,
            loads as you scroll, and downloads the ranking as CSV.
          </p>
          <Link to="/pricing" className={styles.ctaButton}>
            Get Premium
          </Link>
        </aside>
      ) : null}
    </div>
  );
}
