export { default } from '../pages/TermsOfServicePage.tsx';
