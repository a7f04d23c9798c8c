import { PageMeta } from '@yield/platform';

export default function TermsOfServicePage() {
  return (
    <main className="page">
      <PageMeta title="Terms of Service" description="The terms that govern your use of our services." />
      <h1>Terms of Service</h1>
    </main>
  );
}
