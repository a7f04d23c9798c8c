import { PageMeta, useSiteSettings } from '@yield/platform';
import { Icon, type IconName } from '../shared/components/Icon.tsx';
import { IconCard } from '../shared/components/IconCard.tsx';
import ui from '../shared/components/components.module.css';
import styles from './b2b.module.css';
import { ExternalLink } from '@yield/ui';

const STEPS = [
  {
    title: 'You integrate the API',
    text: 'Add savings to your app with a few REST calls. Sandbox keys and example code get you to a working prototype in days.',
  },
  {
    title: 'Your clients save in your bank',
    text: 'They open a savings balance inside the product they already use and trust. Their money never leaves your experience.',
  },
  {
    title: 'You earn revenue',
    text: 'You earn 0.5% of every deposit your clients make, paid out to you automatically each month.',
  },
  {
    title: 'We handle everything else',
    text: 'Protocol selection, rebalancing, monitoring and reporting run on our side, around the clock.',
  },
];

const FEATURE_STRIP: { label: string; icon: IconName }[] = [
  { label: 'Easy API', icon: 'code' },
  { label: 'Fast integration', icon: 'zap' },
  { label: '99.9999% uptime SLA', icon: 'server' },
  { label: '24/7 support', icon: 'clock' },
  { label: 'Automatic monthly payouts', icon: 'dollar' },
];

const BENEFITS: { title: string; icon: IconName; text: string }[] = [
  {
    title: 'Zero effort',
    icon: 'check',
    text: 'No protocol research, no treasury desk, no smart contracts to write or maintain. You ship a feature; we run the savings engine.',
  },
  {
    title: 'No compliance hassle',
    icon: 'file',
    text: 'We maintain the documentation, risk disclosures and reporting your compliance team will ask for, so reviews move quickly.',
  },
  {
    title: 'More revenue',
    icon: 'trendingUp',
    text: 'Earn 0.5% per deposit on every balance your clients build, with automatic monthly payouts and no minimum volume.',
  },
  {
    title: 'Fully managed',
    icon: 'shield',
    text: 'Allocation, rebalancing and monitoring are fully managed, backed by a 99.9999% uptime SLA and support 24 hours a day, 7 days a week.',
  },
];

export default function B2bPage() {
  const settings = useSiteSettings();
  const signupForm = settings?.externalUrls.businessSignupForm;
  return (
    <main className="page">
      <PageMeta
        title="Business API"
        description="A plug-and-play savings API: your clients save in their own bank, you earn 0.5% per deposit."
      />
      <header className={`${ui.hero} ${styles.hero}`}>
        <span className={ui.eyebrow}>Savings API for businesses</span>
        <h1>The First Plug-and-Play API for Crypto Savings</h1>
        <p className={ui.lead}>
          Offer your clients a savings balance that earns DeFi yield, inside your own product. You
          earn 0.5% per deposit; we run everything behind the API.
        </p>
        <div className={`${ui.buttonRow} ${ui.center}`}>
          <ExternalLink arrow href={signupForm} className="btn btn-primary">
            Get Started
          </ExternalLink>
        </div>
      </header>

      <section className={ui.section} aria-labelledby="b2b-how-title">
        <h2 id="b2b-how-title" className={ui.centered}>
          How It Works
        </h2>
        <ol className={styles.steps}>
          {STEPS.map((step, index) => (
            <li key={step.title} className={styles.step}>
              <span className={styles.stepNumber} aria-hidden="true">
                {index + 1}
              </span>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="b2b-features-title">
        <h2 id="b2b-features-title" className="visually-hidden">
          Features
        </h2>
        <ul className={styles.strip}>
          {FEATURE_STRIP.map((feature) => (
            <li key={feature.label}>
              <Icon name={feature.icon} size={22} />
              <span>{feature.label}</span>
            </li>
          ))}
        </ul>
      </section>

      <section className={ui.section} aria-labelledby="b2b-benefits-title">
        <h2 id="b2b-benefits-title" className={ui.centered}>
          Why Businesses Choose Us
        </h2>
        <ul className={ui.grid4}>
          {BENEFITS.map((benefit) => (
            <IconCard
              key={benefit.title}
              icon={benefit.icon}
              title={benefit.title}
              text={benefit.text}
            />
          ))}
        </ul>
      </section>

      <section className={styles.cta} aria-labelledby="b2b-cta-title">
        <h2 id="b2b-cta-title">Ready to offer savings to your clients?</h2>
        <p>Tell us about your product and we will set up a sandbox and a call with our team.</p>
        <div className={`${ui.buttonRow} ${ui.center}`}>
          <ExternalLink arrow href={signupForm} className={`btn ${styles.ctaPrimary}`}>
            Schedule a Demo
          </ExternalLink>
          <ExternalLink
            arrow
            href={settings?.externalUrls.apiDocs}
            className={`btn ${styles.ctaSecondary}`}
          >
            View API Documentation
          </ExternalLink>
        </div>
      </section>
    </main>
  );
}
