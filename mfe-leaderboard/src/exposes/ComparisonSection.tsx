export { default } from '../pages/ComparisonSection.tsx';
