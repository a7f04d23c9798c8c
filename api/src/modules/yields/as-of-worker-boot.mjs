// The entry of the worker thread of past days' answers (./as-of-service.ts). The server runs
// under tsx (`node --import tsx`), but on node 20 a worker does not inherit that loader, and
// vitest's processes never had it: register tsx's loader in this thread, then load the
// TypeScript worker.
import { register } from 'tsx/esm/api';

register();
const { serveAsOf } = await import('./as-of-worker.ts');
serveAsOf();
