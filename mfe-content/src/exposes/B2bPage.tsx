export { default } from '../pages/B2bPage.tsx';
