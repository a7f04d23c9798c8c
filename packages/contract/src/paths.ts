/**
 * Every path of /api, by endpoint name (the names of the route table in ./endpoints.ts).
 * `{name}` is a path parameter, filled by apiPath(). No zod, and a module of its own so that
 * browser code using only the enumerations does not carry the paths.
 */
export const API_PATHS = {
  health: '/api/health',
  settings: '/api/settings',
  sources: '/api/sources',
  strategies: '/api/strategies',
  baseRates: '/api/baserate',
  history: '/api/history',
  earnings: '/api/earnings',
  netYield: '/api/net-yield',
  netYieldRanking: '/api/net-yield/ranking',
  breakdown: '/api/strategies/{id}/breakdown',
  strategyContent: '/api/strategy-content/{slug}',
  mailSignup: '/api/addToMailList',
  alertSubscribe: '/api/alerts',
  alertConfirm: '/api/alerts/confirm',
  alertUnsubscribe: '/api/alerts/unsubscribe',
  alertUnsubscribeOneClick: '/api/alerts/unsubscribe',
  mailConfirm: '/api/mailing-list/confirm',
  mailUnsubscribe: '/api/mailing-list/unsubscribe',
  premiumInvite: '/api/premium',
  premiumLogin: '/api/premiumLogin',
  premiumAnalysis: '/api/premium/strategies/{id}',
  premiumSignIn: '/api/premium/sign-in',
  premiumSignInRenew: '/api/premium/sign-in',
  scanner: '/api/scanner',
  trackRecord: '/api/track-record',
  scannerTrackRecord: '/api/track-record/scanner',
  poolHistory: '/api/scanner/pools/{pool}/history',
  remoteErrors: '/api/remote-errors',
  openApi: '/api/openapi.json',
  docs: '/api/docs',
  docsScript: '/api/docs/redoc.standalone.js',
} as const;

/** A path of API_PATHS with its parameters filled (URI-encoded) and an optional query string. */
export function apiPath(
  template: string,
  params: Readonly<Record<string, string | number>> = {},
  query?: Readonly<Record<string, string | number>>,
): string {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${template}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
  if (!query) return path;
  const search = new URLSearchParams(
    Object.entries(query).map(([k, v]) => [k, String(v)] as [string, string]),
  );
  return `${path}?${search.toString()}`;
}
