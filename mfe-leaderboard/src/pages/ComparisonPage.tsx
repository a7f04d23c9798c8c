import { PageMeta } from '@yield/platform';
import { Comparison } from '../features/comparison/Comparison.tsx';

/** /options: the comparison alone, with its own title and meta description. */
export default function ComparisonPage() {
  return (
    <main className="page">
      <PageMeta
        title="Yield Comparison"
        description="Crypto yields ranked by risk-adjusted 30-day APR against the DeFi Base Rate."
      />
      <Comparison titleLevel={1} />
    </main>
  );
}
