import { PageMeta } from '@yield/platform';

export default function SourcesOfYieldPage() {
  return (
    <main className="page">
      <PageMeta title="Sources of the Yield" description="Where the yield comes from: delta-neutral strategies, treasury bills and lending protocols." />
      <h1>Sources of the Yield</h1>
    </main>
  );
}
