export { default } from '../pages/StrategyDetailPage.tsx';
