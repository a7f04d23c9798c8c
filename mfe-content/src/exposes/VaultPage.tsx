export { default } from '../pages/VaultPage.tsx';
