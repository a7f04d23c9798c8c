import { ContactEmail, LegalPage, type LegalSection } from '../features/legal/LegalPage.tsx';

const SECTIONS: LegalSection[] = [
  {
    id: 'what-are-cookies',
    title: 'What Cookies Are',
    body: (
      <p>
        Cookies are small text files a website stores in your browser. Similar technologies, such as
        your browser&apos;s local storage, work in the same way. In this policy, &quot;cookies&quot;
        covers both.
      </p>
    ),
  },
  {
    id: 'how-we-use-cookies',
    title: 'How We Use Cookies',
    body: (
      <ul>
        <li>
          <strong>Essential</strong>: needed for the site to work, such as keeping you signed in to
          premium features. These cannot be switched off.
        </li>
        <li>
          <strong>Analytics</strong>: help us understand, in aggregate, which pages are visited and
          how the site performs, so we can improve it.
        </li>
        <li>
          <strong>Functionality</strong>: remember choices you make, such as closing the disclaimer
          or the time range you picked on a strategy page.
        </li>
      </ul>
    ),
  },
  {
    id: 'types-of-cookies',
    title: 'Session and Persistent Cookies',
    body: (
      <p>
        <strong>Session cookies</strong> last only until you close your browser.{' '}
        <strong>Persistent cookies</strong> stay until they expire or you delete them; we use them
        to remember your preferences and your premium sign-in between visits.
      </p>
    ),
  },
  {
    id: 'third-party-cookies',
    title: 'Third-Party Cookies',
    body: (
      <p>
        Some pages link to or embed services run by others, such as the forms used to request
        premium access or business sign-up. Those services may set their own cookies under their own
        policies, which we do not control. We do not sell cookie data to anyone.
      </p>
    ),
  },
  {
    id: 'managing-cookies',
    title: 'Managing Cookies',
    body: (
      <p>
        You can view, block and delete cookies in your browser&apos;s settings, and most browsers
        let you block third-party cookies only. If you block essential cookies, some parts of the
        site, such as premium features, will not work.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes',
    body: (
      <p>
        We may update this policy when we change how we use cookies. The date at the top of this
        page shows the current version.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        Questions about cookies: email <ContactEmail />.
      </p>
    ),
  },
];

export default function CookiesPolicyPage() {
  return (
    <LegalPage
      title="Cookies Policy"
      description="How and why we use cookies."
      sections={SECTIONS}
    />
  );
}
