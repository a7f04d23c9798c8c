import { Icon, type IconName } from './Icon.tsx';
import ui from './components.module.css';

/** A card of an icon grid: icon bubble, title and a short text (vault, business API, learn). */
export function IconCard({ icon, title, text }: { icon: IconName; title: string; text: string }) {
  return (
    <li className={ui.card}>
      <span className={ui.iconBubble}>
        <Icon name={icon} />
      </span>
      <h3>{title}</h3>
      <p>{text}</p>
    </li>
  );
}
