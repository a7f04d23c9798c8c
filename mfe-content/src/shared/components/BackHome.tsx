import { Link } from 'react-router-dom';
import styles from './components.module.css';

export function BackHome({ label = 'Back to Home' }: { label?: string }) {
  return (
    <Link to="/" className={styles.backLink}>
      <span aria-hidden="true">←</span> {label}
    </Link>
  );
}
