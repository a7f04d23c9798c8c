export { default } from '../pages/LearnPage.tsx';
