import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { sourcesQuery } from '@yield/platform';
import styles from './analysis.module.css';

/** Links to the other sources' reports, so a premium member can move between them. */
export function OtherReports({ current }: { current: string }) {
  const all = useQuery(sourcesQuery).data?.filter((source) => !source.isBaseRate);
  const isKnown = all?.some((source) => String(source.id) === current) ?? false;
  const sources = all?.filter((source) => String(source.id) !== current);
  if (!sources || sources.length === 0) return null;
  return (
    <nav className={styles.section} aria-labelledby="other-reports-heading">
      <h2 id="other-reports-heading">{isKnown ? 'Other strategy reports' : 'Strategy reports'}</h2>
      <ul className={styles.reportLinks}>
        {sources.map((source) => (
          <li key={source.id}>
            <Link to={`/premium/${source.id}`}>{source.name}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
