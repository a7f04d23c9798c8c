import { PageMeta } from '@yield/platform';

export default function VaultPage() {
  return (
    <main className="page">
      <PageMeta title="Yield Generation Excellence" description="Why our vaults lead on reward-to-risk: diversification across protocols and a DeFAI scanner for the best yields." />
      <h1>Yield Generation Excellence</h1>
    </main>
  );
}
