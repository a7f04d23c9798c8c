import { PageMeta } from '@yield/platform';

export default function HelpCenterPage() {
  return (
    <main className="page">
      <PageMeta title="Help Center" description="Answers, support and contact options." />
      <h1>Help Center</h1>
    </main>
  );
}
