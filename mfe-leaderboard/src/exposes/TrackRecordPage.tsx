export { default } from '../pages/TrackRecordPage.tsx';
