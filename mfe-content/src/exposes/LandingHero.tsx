export { default } from '../pages/LandingHero.tsx';
