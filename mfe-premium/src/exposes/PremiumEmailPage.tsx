export { default } from '../pages/PremiumEmailPage.tsx';
