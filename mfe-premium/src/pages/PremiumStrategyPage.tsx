import { PageMeta } from '@yield/platform';

export default function PremiumStrategyPage() {
  return (
    <main className="page">
      <PageMeta title="Premium Strategy" description="Premium strategy analysis." />
      <h1>Premium Strategy</h1>
    </main>
  );
}
