export { default } from '../pages/SourcesOfYieldPage.tsx';
