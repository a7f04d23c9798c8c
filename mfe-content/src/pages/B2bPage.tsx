import { PageMeta } from '@yield/platform';

export default function B2bPage() {
  return (
    <main className="page">
      <PageMeta title="Business API" description="A plug-and-play savings API: your clients save in their own bank, you earn 0.5% per deposit." />
      <h1>The First Plug-and-Play API for Crypto Savings</h1>
    </main>
  );
}
