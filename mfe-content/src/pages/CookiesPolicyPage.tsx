import { PageMeta } from '@yield/platform';

export default function CookiesPolicyPage() {
  return (
    <main className="page">
      <PageMeta title="Cookies Policy" description="How and why we use cookies." />
      <h1>Cookies Policy</h1>
    </main>
  );
}
