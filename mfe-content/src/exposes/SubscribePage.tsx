export { default } from '../pages/SubscribePage.tsx';
