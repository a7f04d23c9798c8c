import { PageMeta } from '@yield/platform';

export default function ComparisonPage() {
  return (
    <main className="page">
      <PageMeta title="Yield Comparison" description="Crypto yields ranked by risk-adjusted 30-day APR against the DeFi Base Rate." />
      <h1>Yield Comparison</h1>
    </main>
  );
}
