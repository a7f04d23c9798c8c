import { atom } from 'jotai';

/**
 * The comparison's Standard/Pro toggle (default Standard). The comparison's own state, not the
 * site's: it lives with the comparison, in jotai's store shared by the shell and the remotes, so the
 * choice holds while the saver moves between `/`, `/options` and back.
 */
export const isProAtom = atom(false);
isProAtom.debugLabel = 'comparisonIsPro';
