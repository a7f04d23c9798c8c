export { AntdRoot } from './AntdRoot.tsx';
export { toast, warmUpToasts } from './toast.ts';
export {
  NOT_AVAILABLE,
  formatApr,
  formatDay,
  formatHolders,
  formatLocaleDate,
  formatPoints,
  formatTvl,
  formatTvlTick,
  type MonthStyle,
} from './format.ts';
