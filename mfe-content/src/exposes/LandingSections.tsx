export { default } from '../pages/LandingSections.tsx';
