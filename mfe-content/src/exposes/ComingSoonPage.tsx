export { default } from '../pages/ComingSoonPage.tsx';
