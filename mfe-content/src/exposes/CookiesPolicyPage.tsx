export { default } from '../pages/CookiesPolicyPage.tsx';
