export { default } from '../pages/HowToPage.tsx';
