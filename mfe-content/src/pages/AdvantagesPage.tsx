import { PageMeta } from '@yield/platform';

export default function AdvantagesPage() {
  return (
    <main className="page">
      <PageMeta title="Advantages" description="Best yield, no trading, top-notch security, simplicity, instant transactions and self-custody." />
      <h1>Advantages</h1>
    </main>
  );
}
