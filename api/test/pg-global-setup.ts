/**
 * vitest globalSetup: one throwaway PostgreSQL cluster for the whole run of the API's tests; each
 * suite that needs a database creates its own on it (freshDatabase in test/pg-cluster.ts).
 */
import type { TestProject } from 'vitest/node';
import { startCluster } from './pg-cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** postgres://postgres@127.0.0.1:<port>/postgres of the run's cluster. */
    pgBaseUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startCluster();
  project.provide('pgBaseUrl', cluster.url());
  return () => cluster.destroy();
}
