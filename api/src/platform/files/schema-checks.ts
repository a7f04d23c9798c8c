import type { z } from 'zod';

/** Flags every item whose key an earlier item of the same list already had. */
export function flagRepeats<T>(
  ctx: z.RefinementCtx,
  items: readonly T[],
  key: (item: T) => string | number,
  at: (index: number) => PropertyKey[],
  message: (key: string | number) => string,
): void {
  const seen = new Set<string | number>();
  items.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) ctx.addIssue({ code: 'custom', path: at(i), message: message(k) });
    seen.add(k);
  });
}
