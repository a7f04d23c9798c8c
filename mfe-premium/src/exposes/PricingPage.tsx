export { default } from '../pages/PricingPage.tsx';
