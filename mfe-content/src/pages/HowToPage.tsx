import { PageMeta } from '@yield/platform';

export default function HowToPage() {
  return (
    <main className="page">
      <PageMeta title="TradFi vs Crypto" description="Ways to grow your money in traditional finance and in crypto, with their risk levels." />
      <h1>TradFi versus Crypto</h1>
    </main>
  );
}
