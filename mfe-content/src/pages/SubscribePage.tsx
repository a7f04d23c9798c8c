import { PageMeta } from '@yield/platform';
import { BackHome } from '../shared/components/BackHome.tsx';
import { MailListForm } from '../features/mailing-list/MailListForm.tsx';
import ui from '../shared/components/components.module.css';
import styles from './simple.module.css';

export default function SubscribePage() {
  return (
    <main className="page">
      <PageMeta
        title="Subscribe"
        description="Join the mailing list for new yield sources and product updates."
      />
      <BackHome />
      <div className={styles.centerCard}>
        <span className={ui.eyebrow}>Savings accounts</span>
        <h1>Soon</h1>
        <p>
          Accounts are opening soon. Leave your email and we will let you know when you can create
          yours, along with new yield sources and changes to the rankings.
        </p>
        <MailListForm source="subscribe" buttonLabel="Subscribe" />
        <p className={ui.small}>
          By subscribing you agree to receive marketing emails from us. You can unsubscribe at any
          time with the link in every email. We never share your address.
        </p>
      </div>
    </main>
  );
}
