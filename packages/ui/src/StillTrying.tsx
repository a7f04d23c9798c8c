import { useEffect, useState } from 'react';

/** A data page still waiting after this long says so (before its retries end in an error). */
export const STILL_TRYING_AFTER_MS = 1500;
export const STILL_TRYING_TEXT = 'Still trying to reach the server…';

/**
 * Placed inside a loading block (a live region): nothing at first, then, if the block is still
 * shown after {@link STILL_TRYING_AFTER_MS}, a line saying the page keeps trying. The error and
 * its Retry follow as before once the query's retries are spent.
 */
export function StillTrying({ className }: { className?: string }) {
  const [late, setLate] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLate(true), STILL_TRYING_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  return late ? (
    <span className={className} data-testid="still-trying">
      {STILL_TRYING_TEXT}
    </span>
  ) : null;
}
