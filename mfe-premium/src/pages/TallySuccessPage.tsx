import { PageMeta } from '@yield/platform';

export default function TallySuccessPage() {
  return (
    <main className="page">
      <PageMeta title="Request Submitted" description="Your priority premium access request was submitted." />
      <h1>Thank You!</h1>
    </main>
  );
}
