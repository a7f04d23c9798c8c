export { AntdRoot } from './AntdRoot.tsx';
export { useToast, type Toast } from './use-toast.ts';
export { toast, warmUpToasts } from './toast.ts';
