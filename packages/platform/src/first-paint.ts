/**
 * First paint from the server, browser side (contract and overview: first-paint-contract.ts).
 */
import type { QueryClient } from '@tanstack/react-query';
import {
  FIRST_PAINT_ATTR,
  FIRST_PAINT_DATA_ID,
  FIRST_PAINT_HEAD_ATTR,
  HYDRATING_ATTR,
  type FirstPaintData,
} from './first-paint-contract.ts';
import { seedAnswers, settingsQuery } from './queries.ts';

export * from './first-paint-contract.ts';

let captured: Map<string, string> | null = null;

/**
 * Browser: reads the server's first paint before the app renders over it. Seeds the query cache
 * with the data it was rendered with (so the first client render matches it), removes the
 * server's head tags (the app's own take over) and keeps each module's markup for its slot.
 */
export function adoptFirstPaint(root: HTMLElement, queryClient: QueryClient): void {
  captured = new Map();
  for (const element of root.querySelectorAll<HTMLElement>(`[${FIRST_PAINT_ATTR}]`)) {
    // A page to hydrate keeps its markup in place: there is no copy to keep for a slot.
    if (element.hasAttribute(HYDRATING_ATTR)) continue;
    captured.set(element.getAttribute(FIRST_PAINT_ATTR)!, element.innerHTML);
  }
  for (const tag of document.head.querySelectorAll(`[${FIRST_PAINT_HEAD_ATTR}]`)) tag.remove();
  const script = document.getElementById(FIRST_PAINT_DATA_ID);
  if (!script) return;
  try {
    const data = JSON.parse(script.textContent ?? '') as FirstPaintData;
    // Marked as old: the app still asks for fresh settings (the page preloads that call).
    if (data.settings) {
      queryClient.setQueryData(settingsQuery.queryKey, data.settings, { updatedAt: 1 });
    }
    // The page's own data were read by the server as it sent the page: as fresh as a request.
    if (data.data) seedAnswers(queryClient, data.data, Date.now());
  } catch {
    // A damaged payload only costs the head start: the app fetches as usual.
  }
}

/** The server markup of this module while it is still loading, on the first page only. */
export function firstPaintOf(key: string): string | undefined {
  return captured?.get(key);
}

/** After the first navigation the server markup no longer describes the page. */
export function forgetFirstPaint(): void {
  captured?.clear();
}
