import { PageMeta } from '@yield/platform';

export default function PricingPage() {
  return (
    <main className="page">
      <PageMeta title="Premium Access" description="Premium access for $299 per month, by invite code or request." />
      <h1>Premium Access</h1>
    </main>
  );
}
