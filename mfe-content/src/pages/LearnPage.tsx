import { PageMeta } from '@yield/platform';

export default function LearnPage() {
  return (
    <main className="page">
      <PageMeta title="Learn" description="Guides on crypto savings, yield and risk are coming soon." />
      <h1>Coming Soon</h1>
    </main>
  );
}
