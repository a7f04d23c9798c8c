// Async boundary: shared singletons (react, router, jotai...) are negotiated before bootstrap runs.
import { fetchRemotesManifest } from './remotes/registry.ts';

// Start fetching the remotes manifest at once, in parallel with the shared libraries.
fetchRemotesManifest().catch(() => undefined);
void import(/* webpackChunkName: "bootstrap" */ './bootstrap.tsx');
