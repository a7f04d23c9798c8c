export { default } from '../pages/NumericStrategyPage.tsx';
