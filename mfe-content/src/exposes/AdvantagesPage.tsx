export { default } from '../pages/AdvantagesPage.tsx';
