import { Comparison } from '../features/comparison/Comparison.tsx';
import styles from './ComparisonSection.module.css';

/**
 * The comparison on `/`, between the landing hero and the landing's features. No page meta and an
 * h2 title: the hero owns the home page's meta and its h1.
 */
export default function ComparisonSection() {
  return (
    <section className={styles.homeSection} id="comparison" aria-label="Yield comparison">
      <Comparison titleLevel={2} />
    </section>
  );
}
