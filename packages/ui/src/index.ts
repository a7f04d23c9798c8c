export { AntdRoot } from './AntdRoot.tsx';
export { toast, warmUpToasts } from './toast.ts';
export * from './format.ts';
