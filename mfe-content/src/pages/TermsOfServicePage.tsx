import { Link } from 'react-router-dom';
import { ContactEmail, LegalPage, type LegalSection } from '../features/legal/LegalPage.tsx';

/** The terms state a minimum user age of 18. */
export const MINIMUM_AGE = 18;

const SECTIONS: LegalSection[] = [
  {
    id: 'introduction',
    title: 'Introduction',
    body: (
      <p>
        These terms govern your use of our website, the yield comparison, premium features and any
        related services. Please read them carefully. They include important limits on our
        liability.
      </p>
    ),
  },
  {
    id: 'acceptance',
    title: 'Acceptance',
    body: (
      <p>
        By using our services you accept these terms and our{' '}
        <Link to="/privacy-policy">Privacy Policy</Link>. If you do not agree, do not use the
        services.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes',
    body: (
      <p>
        We may change these terms from time to time. The date at the top of this page shows the
        current version. If you keep using the services after a change, you accept the new terms.
      </p>
    ),
  },
  {
    id: 'use-of-services',
    title: 'Use of Services',
    body: (
      <>
        <p>
          <strong>You must be at least {MINIMUM_AGE} years old to use our services.</strong> By
          using them, you confirm that you are.
        </p>
        <p>
          The information on this site, including rankings, risk-adjusted yields and risk ratings,
          is provided for general information only. It is not financial, investment, legal or tax
          advice, and past yields do not guarantee future returns. Deposits are made on the
          providers&apos; own sites, under their own terms.
        </p>
        <p>You may not use the services where doing so is against the law that applies to you.</p>
      </>
    ),
  },
  {
    id: 'user-responsibilities',
    title: 'User Responsibilities',
    body: (
      <ul>
        <li>Keep your wallet, private keys, recovery phrase and invite codes safe and private.</li>
        <li>Make your own decisions and only deposit what you can afford to lose.</li>
        <li>Give accurate information when you sign up for anything.</li>
        <li>
          Do not misuse the services: no attempts to break their security, overload them or scrape
          them at scale.
        </li>
        <li>Comply with the laws and tax rules that apply to you.</li>
      </ul>
    ),
  },
  {
    id: 'intellectual-property',
    title: 'Intellectual Property',
    body: (
      <p>
        The site, its design, texts, methodology and software belong to us or our licensors. You may
        view and share pages for personal, non-commercial use with a link to the source. Any other
        use needs our written permission. Names and logos of third-party protocols belong to their
        owners.
      </p>
    ),
  },
  {
    id: 'limitation-of-liability',
    title: 'Limitation of Liability',
    body: (
      <>
        <p>
          The services are provided &quot;as is&quot;. We work hard to keep data accurate, but we do
          not guarantee that it is complete, current or free of errors.
        </p>
        <p>
          To the extent the law allows, we are not liable for losses arising from your use of the
          services or of third-party protocols, including losses from smart contract failures,
          market movements, stablecoin de-pegs or regulatory action. Nothing in these terms limits
          liability that cannot be limited by law.
        </p>
      </>
    ),
  },
  {
    id: 'governing-law',
    title: 'Governing Law',
    body: (
      <p>
        These terms are governed by the laws of the country in which we are established. Any dispute
        will be handled by the courts of that country, unless the consumer protection law of the
        country where you live gives you the right to bring proceedings there.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        Questions about these terms: email <ContactEmail />.
      </p>
    ),
  },
];

export default function TermsOfServicePage() {
  return (
    <LegalPage
      title="Terms of Service"
      description="The terms that govern your use of our services."
      sections={SECTIONS}
    />
  );
}
