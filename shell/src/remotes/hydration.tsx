/**
 * A page the browser hydrates (docs/architecture.md, "First paint"): the server puts its module's
 * markup in the slot's Suspense boundary as the boundary's content, and the browser adopts the
 * whole page with `hydrateRoot`. The frame hydrates as soon as the app starts; the module's
 * boundary stays as the server sent it (on screen, dehydrated) until the module's code has loaded,
 * then React hydrates it in place: nothing on the page is rendered a second time.
 */
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { FIRST_PAINT_ATTR, HYDRATING_ATTR } from '@yield/platform';

/** Server: whether a slot's module markup goes in place as its boundary's content. */
export const HydratedSlots = createContext<(key: string) => boolean>(() => false);

/** Browser: called once the module of a hydrated slot is hydrated (or rendered) in its slot. */
const SlotHydrated = createContext<() => void>(() => {});

const SLOT_ATTR = 'data-hydrate-slot';

/** Server: stands where the module's markup goes; replaced by it after rendering (spliceSlots). */
export function SlotPlaceholder({ slot }: { slot: string }) {
  return <template {...{ [SLOT_ATTR]: slot }} />;
}

const escapeAttr = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** Server: puts each hydrated module's markup where its placeholder was rendered. */
export function spliceSlots(
  html: string,
  modules: Record<string, string>,
  keys: readonly string[],
) {
  let out = html;
  for (const key of keys) {
    const markup = modules[key];
    if (markup === undefined) continue;
    const placeholder = `<template ${SLOT_ATTR}="${escapeAttr(key)}"></template>`;
    out = out.replace(placeholder, () => markup);
  }
  return out;
}

/**
 * The page's outermost element while it is the server's markup: inert and hidden from assistive
 * technology (painted, not usable yet) and marked with the page's module (`slot`). The server
 * renders it, the browser's hydration renders the same, and it becomes a plain wrapper (laid
 * out as if it were not there) once the module has hydrated.
 */
export function HydrationBox({ slot, children }: { slot: string; children: ReactNode }) {
  const [pending, setPending] = useState(true);
  const done = useCallback(() => setPending(false), []);
  return (
    <SlotHydrated.Provider value={done}>
      <div
        className="first-paint"
        inert={pending}
        aria-hidden={pending ? 'true' : undefined}
        {...{ [FIRST_PAINT_ATTR]: pending ? slot : undefined }}
        {...{ [HYDRATING_ATTR]: pending ? '' : undefined }}
      >
        {children}
      </div>
    </SlotHydrated.Provider>
  );
}

/** Renders its child; tells the page's HydrationBox once it is committed (hydrated). */
export function SlotMounted({ children }: { children: ReactNode }) {
  const done = useContext(SlotHydrated);
  useEffect(() => done(), [done]);
  return children;
}
