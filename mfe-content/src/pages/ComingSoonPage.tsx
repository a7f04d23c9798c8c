import { PageMeta } from '@yield/platform';

export default function ComingSoonPage() {
  return (
    <main className="page">
      <PageMeta title="Coming Soon" description="This page is coming soon." />
      <h1>Coming Soon</h1>
    </main>
  );
}
