import { PageMeta } from '@yield/platform';

export default function PrivacyPolicyPage() {
  return (
    <main className="page">
      <PageMeta title="Privacy Policy" description="How we collect, use and protect your data." />
      <h1>Privacy Policy</h1>
    </main>
  );
}
