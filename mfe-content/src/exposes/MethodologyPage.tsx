export { default } from '../pages/MethodologyPage.tsx';
