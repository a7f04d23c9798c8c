export { default } from '../pages/SecurityPage.tsx';
