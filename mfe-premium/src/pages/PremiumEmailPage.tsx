import { PageMeta } from '@yield/platform';

export default function PremiumEmailPage() {
  return (
    <main className="page">
      <PageMeta title="Premium Registration" description="Activate your premium account." />
      <h1>Almost There!</h1>
    </main>
  );
}
