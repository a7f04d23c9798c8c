export { default } from '../pages/TallySuccessPage.tsx';
