import { useQuery } from '@tanstack/react-query';
import { sourcesQuery } from '@yield/platform';
import type { Exit } from '@yield/contract';
import { formatDay, ExternalLink } from '@yield/ui';
import { findSource } from '../sources.ts';
import layout from '../page.module.css';
import styles from './saver.module.css';

/** What each exit kind means, in the order of the Exit column's words. */
export const EXIT_KIND_TEXT: Record<Exit['kind'], { title: string; text: string }> = {
  instant: {
    title: 'Instant',
    text: 'You can withdraw at any time and have the money in the same transaction.',
  },
  cooldown: {
    title: 'Cooldown',
    text: 'You ask to withdraw, wait a fixed number of days, then claim. Nothing earns during the wait.',
  },
  queue: {
    title: 'Queue',
    text: 'Your request waits its turn in a queue; how long depends on how many exit before you.',
  },
  lock: {
    title: 'Lock',
    text: 'The deposit is locked until a date; leaving earlier costs a fee or a discount.',
  },
};

/** How long until the money is back: one exit, said plainly, with its source and date. */
export function ExitFacts({ exit }: { exit: Exit }) {
  const kind = EXIT_KIND_TEXT[exit.kind];
  return (
    <div className={styles.exit} data-exit={exit.kind}>
      <p className={styles.exitKind}>
        <strong>{kind.title}</strong>
        {exit.kind === 'instant' ? null : `: up to ${exit.days} day${exit.days === 1 ? '' : 's'}`}
      </p>
      <p>{exit.note}</p>
      <p className={styles.note}>
        {kind.text} Checked on {formatDay(exit.verified)}:{' '}
        <ExternalLink href={exit.link}>source</ExternalLink>.
      </p>
    </div>
  );
}

/** The strategy page's "Exit" section: how long until a saver has the money back. */
export function ExitInfo({ id }: { id: number }) {
  const sources = useQuery(sourcesQuery);
  const row = findSource(sources.data, id);
  return (
    <section className={layout.section} aria-labelledby="exit-heading" data-section="exit">
      <h2 id="exit-heading">Exit</h2>
      {row ? (
        <ExitFacts exit={row.exit} />
      ) : sources.isPending ? (
        <span className="spinner" role="status" aria-label="Loading the exit" />
      ) : (
        <p>How to exit is not available right now.</p>
      )}
    </section>
  );
}
