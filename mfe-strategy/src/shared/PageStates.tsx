import { PageMeta } from '@yield/platform';
import { StillTrying } from '@yield/ui';
import layout from './page.module.css';

/** A data page waiting for its first answer: a spinner as tall as the screen, then "Still trying". */
export function PageLoading({ label, title }: { label: string; title?: string }) {
  return (
    <main className="page">
      {title ? <PageMeta title={title} description={`${title}.`} /> : null}
      <div className={layout.pageLoading} role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" />
        <span className="visually-hidden">{label}</span>
        <StillTrying />
      </div>
    </main>
  );
}

/** A data page whose first answer failed: what could not be loaded and "Try again". */
export function PageFailed({
  title,
  description,
  what,
  onRetry,
}: {
  title: string;
  description: string;
  /** "This strategy", "The sources": the subject of "could not be loaded just now". */
  what: string;
  onRetry: () => void;
}) {
  return (
    <main className="page">
      <PageMeta title={title} description={description} />
      <h1>{title}</h1>
      <div className={layout.notice} role="alert">
        <p>{what} could not be loaded just now. Please check your connection and try again.</p>
        <button type="button" className="btn btn-primary" onClick={onRetry}>
          Try again
        </button>
      </div>
    </main>
  );
}
