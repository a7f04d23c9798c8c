import { useState } from 'react';
import { Link } from 'react-router-dom';
import comparison from './comparison.module.css';
import styles from './Disclaimer.module.css';

/** Browser storage: holds 'false' once the disclaimer is closed. */
export const DISCLAIMER_STORAGE_KEY = 'disclaimerVisible';

function readVisible(): boolean {
  try {
    return window.localStorage.getItem(DISCLAIMER_STORAGE_KEY) !== 'false';
  } catch {
    return true;
  }
}

/** Closable disclaimer, remembered across visits. Read on first render so nothing shifts. */
export function Disclaimer() {
  const [visible, setVisible] = useState(readVisible);
  if (!visible) return null;
  const close = () => {
    try {
      window.localStorage.setItem(DISCLAIMER_STORAGE_KEY, 'false');
    } catch {
      // Storage may be blocked (private mode); closing still works for this visit.
    }
    setVisible(false);
  };
  return (
    <aside className={styles.disclaimer} aria-label="Disclaimer" data-testid="disclaimer">
      <p>
        <strong>Please read:</strong> the rates shown are what each source paid over the last 30
        days, not a promise of future returns. Crypto savings can lose value, and nothing here is
        financial advice. By using this site you accept our{' '}
        <Link to="/terms-of-service">Terms of Service</Link> and{' '}
        <Link to="/privacy-policy">Privacy Policy</Link>.
      </p>
      <button
        type="button"
        className={comparison.iconButton}
        onClick={close}
        aria-label="Close disclaimer"
      >
        ×
      </button>
    </aside>
  );
}
