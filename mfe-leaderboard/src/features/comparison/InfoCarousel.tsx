import { useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { HeadingAt } from './small-bits.tsx';
import styles from './InfoCarousel.module.css';

/** A swipe longer than 50 px moves the carousel; slides take 300 ms. */
export const SWIPE_THRESHOLD_PX = 50;
export const SLIDE_DURATION_MS = 300;

interface InfoTab {
  title: string;
  body: ReactNode;
}

const TABS: InfoTab[] = [
  {
    title: 'What is the risk-adjusted APR?',
    body: (
      <>
        <p>
          It is what a source paid over the last 30 days, minus charges for the risks it carried:
          how much the rate moved, rewards paid in incentive tokens, its safety and liquidity
          scores, its size and recent outflows. One number you can compare across sources.
        </p>
        <Link to="/methodology">How we calculate it</Link>
      </>
    ),
  },
  {
    title: 'What is the DeFi Base Rate?',
    body: (
      <p>
        The benchmark in the last row of each table. For stablecoins it is the average return of the
        top DeFi lending venues for USDC, USDT and DAI; for crypto, the average return of ETH
        staking (stETH, rETH, cbETH and native ETH). A source is worth its extra risk only if it
        pays more than this.
      </p>
    ),
  },
  {
    title: 'What does GREAT mean?',
    body: (
      <p>
        A GREAT source (green in the charts, tagged in the tables) pays more for each unit of risk
        than the DeFi Base Rate does. A source with an open incident is never GREAT. Past returns
        are not a promise: rates change every day.
      </p>
    ),
  },
];

export function nextIndex(index: number, count: number): number {
  return (index + 1) % count;
}
export function previousIndex(index: number, count: number): number {
  return (index - 1 + count) % count;
}
/** A swipe moves one tab when it is long enough, and stops at the first and last tab. */
export function swipeIndex(index: number, count: number, deltaX: number): number {
  if (Math.abs(deltaX) <= SWIPE_THRESHOLD_PX) return index;
  return deltaX < 0 ? Math.min(index + 1, count - 1) : Math.max(index - 1, 0);
}

/** Three info tabs: arrows wrap around, swipes stop at the ends, dots jump to a tab. */
export function InfoCarousel({ headingLevel }: { headingLevel: number }) {
  const [index, setIndex] = useState(0);
  const swipeStart = useRef<number | null>(null);
  const count = TABS.length;

  const onPointerDown = (event: PointerEvent) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    swipeStart.current = event.clientX;
  };
  const onPointerUp = (event: PointerEvent) => {
    if (swipeStart.current === null) return;
    const deltaX = event.clientX - swipeStart.current;
    swipeStart.current = null;
    setIndex((current) => swipeIndex(current, count, deltaX));
  };

  return (
    <section
      className={styles.carousel}
      aria-roledescription="carousel"
      aria-label="Understand the numbers"
      data-testid="info-carousel"
    >
      <div
        className={styles.carouselViewport}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (swipeStart.current = null)}
      >
        <div
          className={styles.carouselTrack}
          style={{
            transform: `translateX(-${index * 100}%)`,
            transitionDuration: `${SLIDE_DURATION_MS}ms`,
          }}
          aria-live="polite"
        >
          {TABS.map((tab, i) => (
            <div
              key={tab.title}
              className={styles.carouselSlide}
              role="group"
              aria-roledescription="slide"
              aria-label={`${i + 1} of ${count}`}
              aria-hidden={i !== index}
              inert={i !== index}
              data-active={i === index}
            >
              <HeadingAt level={headingLevel} className={styles.carouselTitle}>
                {tab.title}
              </HeadingAt>
              {tab.body}
            </div>
          ))}
        </div>
      </div>
      <div className={styles.carouselControls}>
        <button
          type="button"
          className={styles.arrowButton}
          onClick={() => setIndex((i) => previousIndex(i, count))}
          aria-label="Previous tab"
        >
          ‹
        </button>
        <div className={styles.dots}>
          {TABS.map((tab, i) => (
            <button
              key={tab.title}
              type="button"
              className={styles.dot}
              aria-label={`Show tab ${i + 1}: ${tab.title}`}
              aria-current={i === index ? 'true' : undefined}
              onClick={() => setIndex(i)}
            />
          ))}
        </div>
        <button
          type="button"
          className={styles.arrowButton}
          onClick={() => setIndex((i) => nextIndex(i, count))}
          aria-label="Next tab"
        >
          ›
        </button>
      </div>
    </section>
  );
}
