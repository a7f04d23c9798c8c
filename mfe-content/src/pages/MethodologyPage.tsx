import { PageMeta } from '@yield/platform';

export default function MethodologyPage() {
  return (
    <main className="page">
      <PageMeta title="Methodology" description="The risk-adjusted 30-day APR and the DeFi Base Rate, explained in plain words." />
      <h1>How We Compute the Risk-Adjusted APR</h1>
    </main>
  );
}
