export { default } from '../pages/ComparePage.tsx';
