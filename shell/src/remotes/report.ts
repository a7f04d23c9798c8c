/**
 * Browser error reports (docs/architecture.md, "Browser error reports"): each error a
 * remote's boundary catches is sent to the API, which counts it per remote and release; a canary
 * whose pages fail too often is rolled back.
 */

/** Where the reports go (`POST`, JSON; answered 204). */
export const REMOTE_ERRORS_PATH = '/api/remote-errors';
/** Longest message a report carries. */
export const REPORT_MESSAGE_MAX = 500;

export interface RemoteErrorReport {
  /** The remote's federation name (`mfe_strategy`). */
  remote: string;
  /** The release id of the entry it was loaded from, null for a remote served from elsewhere. */
  release: string | null;
  module: string;
  /** `load`: the remote's code could not be loaded; `render`: its module threw. */
  kind: 'load' | 'render';
  message?: string;
}

const reported = new WeakSet<object>();

const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
};

/** Sends one report, with a beacon (it survives the page going away), else a keepalive fetch. */
function send(report: RemoteErrorReport): void {
  const body = JSON.stringify(report);
  try {
    const blob = new Blob([body], { type: 'application/json' });
    if (navigator.sendBeacon?.(REMOTE_ERRORS_PATH, blob)) return;
  } catch {
    // no beacon here: the fetch below
  }
  fetch(REMOTE_ERRORS_PATH, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
    keepalive: true,
  }).catch(() => undefined);
}

/** Reports an error a remote's boundary caught; the same error object is reported once. */
export function reportRemoteError(
  error: unknown,
  report: Omit<RemoteErrorReport, 'message'>,
): void {
  if (typeof error === 'object' && error !== null) {
    if (reported.has(error)) return;
    reported.add(error);
  }
  send({ ...report, message: describe(error).slice(0, REPORT_MESSAGE_MAX) });
}
