export { AntdRoot } from './AntdRoot.tsx';
export { useToast, type Toast } from './use-toast.ts';
