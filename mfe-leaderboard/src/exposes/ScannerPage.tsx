export { default } from '../pages/ScannerPage.tsx';
