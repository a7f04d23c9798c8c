export { default } from '../pages/PrivacyPolicyPage.tsx';
