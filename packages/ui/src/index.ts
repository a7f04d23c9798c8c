export { AntdRoot } from './AntdRoot.tsx';
export { toast, warmUpToasts } from './toast.ts';
export { NOT_AVAILABLE, formatApr, formatTvl } from './format.ts';
