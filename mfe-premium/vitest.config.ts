export { default } from '@yield/lint/vitest-apps';
