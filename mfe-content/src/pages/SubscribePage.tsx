import { PageMeta } from '@yield/platform';

export default function SubscribePage() {
  return (
    <main className="page">
      <PageMeta title="Subscribe" description="Join the mailing list for new yield sources and product updates." />
      <h1>Soon</h1>
    </main>
  );
}
