import { PageMeta } from '@yield/platform';

export default function NumericStrategyPage() {
  return (
    <main className="page">
      <PageMeta title="Strategy" description="Strategy detail." />
      <h1>Strategy</h1>
    </main>
  );
}
