import { ContactEmail, LegalPage, type LegalSection } from '../features/legal/LegalPage.tsx';

const SECTIONS: LegalSection[] = [
  {
    id: 'smart-contract-audits',
    title: 'Smart Contract Audits',
    body: (
      <p>
        Our vault contracts were audited by two independent security firms before launch, and every
        significant change is reviewed again before it is deployed. Only protocols with public
        audits and a long record are eligible to receive deposits.
      </p>
    ),
  },
  {
    id: 'secure-infrastructure',
    title: 'Secure Infrastructure',
    body: (
      <p>
        Our services run with encrypted connections, least-privilege access and monitoring around
        the clock. We never hold your private keys: funds stay in smart contracts that only your
        wallet can withdraw from.
      </p>
    ),
  },
  {
    id: 'bug-bounty-program',
    title: 'Bug Bounty Program',
    body: (
      <p>
        We reward researchers who find and responsibly disclose vulnerabilities. Please report
        privately, give us reasonable time to fix the issue before sharing it, and never access
        other users&apos; data or funds while testing.
      </p>
    ),
  },
  {
    id: 'more-coming',
    title: 'More Detail Coming',
    body: (
      <p>
        We are preparing more detail on our security practices, including the full audit reports and
        the bounty&apos;s scope and rewards. This page will be updated when they are published.
      </p>
    ),
  },
  {
    id: 'security-contact',
    title: 'Security Contact',
    body: (
      <p>
        To report a vulnerability or a security concern, email <ContactEmail /> with
        &quot;Security&quot; in the subject. We acknowledge reports within 24 hours.
      </p>
    ),
  },
];

export default function SecurityPage() {
  return (
    <LegalPage
      title="Security"
      description="Smart contract audits, secure infrastructure and our bug bounty program."
      sections={SECTIONS}
    />
  );
}
