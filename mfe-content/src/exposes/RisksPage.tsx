export { default } from '../pages/RisksPage.tsx';
