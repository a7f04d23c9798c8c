import { PageMeta } from '@yield/platform';

export default function SecurityPage() {
  return (
    <main className="page">
      <PageMeta title="Security" description="Smart contract audits, secure infrastructure and our bug bounty program." />
      <h1>Security</h1>
    </main>
  );
}
