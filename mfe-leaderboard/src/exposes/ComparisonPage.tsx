export { default } from '../pages/ComparisonPage.tsx';
