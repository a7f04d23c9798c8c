import { PageMeta } from '@yield/platform';
import { Scanner } from '../features/scanner/Scanner.tsx';

/** /scanner: every DeFiLlama pool ranked by risk-adjusted APR (method rapool-v3). */
export default function ScannerPage() {
  return (
    <main className="page">
      <PageMeta
        title="Yield Scanner"
        description="Every DeFiLlama pool ranked by risk-adjusted APR and compared with the DeFi Base Rate: find the best risk-adjusted place for USDC or ETH."
      />
      <Scanner />
    </main>
  );
}
