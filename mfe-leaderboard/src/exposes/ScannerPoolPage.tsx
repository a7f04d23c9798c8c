export { default } from '../pages/ScannerPoolPage.tsx';
