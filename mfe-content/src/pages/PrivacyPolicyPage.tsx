import { ContactEmail, LegalPage, type LegalSection } from '../features/legal/LegalPage.tsx';

const SECTIONS: LegalSection[] = [
  {
    id: 'introduction',
    title: 'Introduction',
    body: (
      <p>
        We respect your privacy. This policy explains what personal data we collect when you use our
        website and services, why we collect it, how we protect it and the rights you have over it.
        We collect as little as we need to run the service.
      </p>
    ),
  },
  {
    id: 'data-we-collect',
    title: 'Data We Collect',
    body: (
      <>
        <p>Depending on how you use the site, we may collect:</p>
        <ul>
          <li>
            <strong>Identity data</strong>: the name or user identifier linked to a premium account.
          </li>
          <li>
            <strong>Contact data</strong>: your email address, when you join the mailing list or
            activate a premium account.
          </li>
          <li>
            <strong>Technical data</strong>: IP address, browser type and version, device type,
            operating system and time zone, as sent by your browser with each request.
          </li>
          <li>
            <strong>Usage data</strong>: the pages you visit and how you use the site, such as the
            time range you choose on a strategy page.
          </li>
          <li>
            <strong>Marketing and communications data</strong>: whether you agreed to receive emails
            from us, where you signed up and when.
          </li>
        </ul>
        <p>
          We do not collect your private keys or recovery phrases, and we will never ask for them.
        </p>
      </>
    ),
  },
  {
    id: 'how-we-use-data',
    title: 'How We Use Data',
    body: (
      <ul>
        <li>To provide the site and premium features you have access to.</li>
        <li>To send the emails you asked for, such as product news and strategy reports.</li>
        <li>To answer your questions and support requests.</li>
        <li>To keep the service secure, prevent abuse and fix problems.</li>
        <li>To understand which pages are useful, so we can improve them.</li>
        <li>To meet our legal obligations.</li>
      </ul>
    ),
  },
  {
    id: 'data-security',
    title: 'Data Security',
    body: (
      <p>
        We protect personal data with encryption in transit, access limited to the people who need
        it, and regular reviews of our systems. No method of transmission or storage is completely
        secure; if a breach affecting your data occurs, we will tell you and the relevant
        authorities as the law requires.
      </p>
    ),
  },
  {
    id: 'data-retention',
    title: 'Data Retention',
    body: (
      <p>
        We keep personal data only as long as we need it for the purposes above. Mailing list
        addresses are kept until you unsubscribe; premium account data for as long as the account is
        active and for the period the law then requires; technical logs for a short period unless
        needed to investigate a security issue.
      </p>
    ),
  },
  {
    id: 'legal-rights',
    title: 'Legal Rights',
    body: (
      <>
        <p>Depending on where you live, you have the right to:</p>
        <ul>
          <li>
            <strong>Access</strong> the personal data we hold about you.
          </li>
          <li>
            <strong>Correction</strong> of data that is incomplete or inaccurate.
          </li>
          <li>
            <strong>Erasure</strong> of your data where there is no good reason for us to keep it.
          </li>
          <li>
            <strong>Objection</strong> to processing based on our legitimate interests or for direct
            marketing.
          </li>
          <li>
            <strong>Restriction</strong> of processing, for example while we check the accuracy of
            your data.
          </li>
          <li>
            <strong>Transfer</strong> of your data to you or to a third party, in a common
            machine-readable format.
          </li>
          <li>
            <strong>Withdraw consent</strong> at any time where we rely on it, for example by
            unsubscribing from emails.
          </li>
        </ul>
        <p>
          To use any of these rights, email <ContactEmail />. We answer within one month. You also
          have the right to complain to your data protection authority.
        </p>
      </>
    ),
  },
  {
    id: 'changes',
    title: 'Changes',
    body: (
      <p>
        We may update this policy when our services or the law change. The date at the top of this
        page shows the latest version; for significant changes we will also tell mailing list
        subscribers by email.
      </p>
    ),
  },
  {
    id: 'contact-us',
    title: 'Contact Us',
    body: (
      <p>
        Questions about this policy or your data: email <ContactEmail />.
      </p>
    ),
  },
];

export default function PrivacyPolicyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      description="How we collect, use and protect your data."
      sections={SECTIONS}
    />
  );
}
