import { PageMeta } from '@yield/platform';

export default function RisksPage() {
  return (
    <main className="page">
      <PageMeta title="Risks" description="Smart contract, protocol, market and regulatory risks of crypto savings, explained." />
      <h1>Understanding the Risks</h1>
    </main>
  );
}
