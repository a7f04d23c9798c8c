import { lazy, startTransition, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { afterIntroPainted } from './after-intro-painted.ts';
import { useAtom } from 'jotai';
import { Link } from 'react-router-dom';
import { useSiteSettings } from '@yield/platform';
import { StillTrying } from '@yield/ui';
import { dataNote, formatDay } from './model.ts';
import { HeadingAt } from './small-bits.tsx';
import { useComparisonData } from './use-comparison-data.ts';
import {
  CHART_MOBILE_QUERY,
  NARROW_QUERY,
  SHORT_NAMES_QUERY,
  useMediaQuery,
  useMediaQueryOrUnknown,
} from './use-media-query.ts';
import type { Market } from './ComparisonBoard.tsx';
import { isProAtom } from './pro-view.ts';
import pageIntro from '../../shared/page-intro.module.css';
import styles from './comparison.module.css';

/**
 * The board (charts, tables, carousel, newsletter) lives in this chunk. It is requested right
 * after the title block has been painted, so it downloads while the data is being fetched, and
 * neither its download nor its evaluation delays the first paint. antd is not in it: its popover
 * and dialog load when a saver reaches for them (RiskBreakdownPopover, Newsletter).
 */
let boardChunk: Promise<typeof import('./ComparisonBoard.tsx')> | undefined;
function loadBoard() {
  boardChunk ??= import('./ComparisonBoard.tsx');
  return boardChunk;
}
const ComparisonBoard = lazy(loadBoard);

interface ToggleOption<T extends string> {
  value: T;
  label: string;
}

/** Two-choice switch made of real buttons (aria-pressed), so it works with keyboard and readers. */
function Toggle<T extends string>({
  label,
  options,
  value,
  onChange,
  testId,
}: {
  label: string;
  options: ToggleOption<T>[];
  value: T;
  onChange: (value: T) => void;
  testId: string;
}) {
  return (
    <div className={styles.toggle} role="group" aria-label={label} data-testid={testId}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          className={styles.toggleButton}
          aria-pressed={option.value === value}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

/** `waiting`: the API has not answered yet (not only the board's code loading). */
function LoadingBlock({ waiting = false }: { waiting?: boolean }) {
  return (
    <div
      className={styles.loading}
      aria-busy="true"
      aria-live="polite"
      data-testid="comparison-loading"
    >
      <span className="spinner" aria-hidden="true" />
      <span>Loading the latest yields…</span>
      {waiting ? <StillTrying /> : null}
    </div>
  );
}

export interface ComparisonProps {
  /** 1 on /options (the page's h1), 2 on / where the landing hero owns the h1. */
  titleLevel: 1 | 2;
}

/** The whole yield comparison, shared by the /options page and the section on /. */
export function Comparison({ titleLevel }: ComparisonProps) {
  const settings = useSiteSettings();
  const introRef = useRef<HTMLElement>(null);
  // The title block paints first; then the list calls and the board's chunk start together, so neither
  // the responses nor the download sit on the way of the page's largest paint.
  const [introPainted, setIntroPainted] = useState(false);
  useEffect(
    () =>
      afterIntroPainted(introRef.current, () => {
        setIntroPainted(true);
        void loadBoard();
      }),
    [],
  );
  const data = useComparisonData({ enabled: introPainted });
  // Unknown (null) only on the server: the first paint then carries both toggles, CSS shows one.
  const narrowOrUnknown = useMediaQueryOrUnknown(NARROW_QUERY);
  const narrow = narrowOrUnknown ?? false;
  const chartMobile = useMediaQuery(CHART_MOBILE_QUERY);
  const shortNames = useMediaQuery(SHORT_NAMES_QUERY);
  const [isPro, setIsPro] = useAtom(isProAtom);
  const [market, setMarket] = useState<Market>('stablecoin');
  const sub = titleLevel + 1;
  // The note speaks for the rows' data once they are known (the first paint has the settings only).
  const rows = data.loading ? undefined : data;
  const note = useMemo(
    () =>
      settings
        ? dataNote(settings.data, rows && [...rows.stablecoinRows, ...rows.cryptoRows])
        : null,
    [settings, rows],
  );
  // The board mounts in a transition: React renders it in small slices instead of one long task
  // (the data arrives through useSyncExternalStore, whose updates would otherwise render at once).
  const [boardShown, setBoardShown] = useState(false);
  useEffect(() => {
    if (!data.loading) startTransition(() => setBoardShown(true));
  }, [data.loading]);

  return (
    <div className={styles.comparison} data-testid="comparison">
      <header className={pageIntro.intro} ref={introRef}>
        <HeadingAt level={titleLevel} className={pageIntro.title}>
          {settings?.siteTitle ?? 'Yield Comparison'}
        </HeadingAt>
        {settings && note ? (
          <>
            <p className={styles.slogan}>{settings.siteSlogan}</p>
            <p className={styles.description}>{settings.siteDescription}</p>
            <p className={pageIntro.sampleNote} data-testid="data-note">
              {note.lead}
              <time dateTime={note.asOf}>{formatDay(note.asOf)}</time>
              {note.tail}
            </p>
          </>
        ) : (
          <div className={styles.introPlaceholder} aria-hidden="true" />
        )}
      </header>

      <div className={styles.controls}>
        {narrowOrUnknown !== false ? (
          <div className={narrowOrUnknown === null ? styles.narrowOnly : styles.contents}>
            <Toggle<Market>
              label="Market"
              testId="market-toggle"
              options={[
                { value: 'stablecoin', label: 'Stablecoins' },
                { value: 'defi', label: 'Crypto' },
              ]}
              value={market}
              onChange={setMarket}
            />
          </div>
        ) : null}
        {narrowOrUnknown !== true ? (
          <div className={narrowOrUnknown === null ? styles.wideOnly : styles.contents}>
            <Toggle<'standard' | 'pro'>
              label="Table detail"
              testId="pro-toggle"
              options={[
                { value: 'standard', label: 'Standard' },
                { value: 'pro', label: 'Pro' },
              ]}
              value={isPro ? 'pro' : 'standard'}
              onChange={(value) => setIsPro(value === 'pro')}
            />
          </div>
        ) : null}
        <p className={styles.controlsHint}>
          Ranked by risk-adjusted 30-day APR against the DeFi Base Rate. Select a figure to see how
          it is built.
        </p>
        <p className={styles.controlsHint}>
          <Link to="/scanner">Scan every DeFi pool</Link> with the same risk charges.
        </p>
        <p className={styles.controlsHint}>
          <Link to="/track-record">Our track record</Link>: what following the top picks paid, month
          by month.
        </p>
      </div>

      <Suspense fallback={<LoadingBlock />}>
        {data.loading || !boardShown ? (
          <LoadingBlock waiting={data.loading} />
        ) : (
          <ComparisonBoard
            data={data}
            narrow={narrow}
            chartMobile={chartMobile}
            shortNames={shortNames}
            market={market}
            showPro={isPro && !narrow}
            headingLevel={sub}
            noteKind={note?.kind ?? 'sample'}
          />
        )}
      </Suspense>
    </div>
  );
}
