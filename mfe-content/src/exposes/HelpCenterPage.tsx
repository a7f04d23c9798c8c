export { default } from '../pages/HelpCenterPage.tsx';
