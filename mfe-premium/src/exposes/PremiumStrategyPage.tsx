export { default } from '../pages/PremiumStrategyPage.tsx';
