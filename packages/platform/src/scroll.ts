/** Spec section 9: scroll to a home section 100 ms after navigating to /. */
export const SECTION_SCROLL_DELAY_MS = 100;

/**
 * Scrolls to the element with this id after `delay` ms. The section may live in a remote that is
 * still loading, so it keeps looking for it (up to `timeoutMs`) instead of giving up at once.
 */
export function scrollToSection(
  id: string,
  { delay = SECTION_SCROLL_DELAY_MS, timeoutMs = 5000, smooth = false } = {},
): () => void {
  let observer: MutationObserver | undefined;
  let giveUp: ReturnType<typeof setTimeout> | undefined;
  const scroll = (el: Element) =>
    el.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block: 'start' });
  const timer = setTimeout(() => {
    const found = document.getElementById(id);
    if (found) return scroll(found);
    observer = new MutationObserver(() => {
      const el = document.getElementById(id);
      if (!el) return;
      observer?.disconnect();
      clearTimeout(giveUp);
      // Let the section lay out before scrolling to it.
      requestAnimationFrame(() => scroll(el));
    });
    observer.observe(document.body, { childList: true, subtree: true });
    giveUp = setTimeout(() => observer?.disconnect(), timeoutMs);
  }, delay);
  return () => {
    clearTimeout(timer);
    clearTimeout(giveUp);
    observer?.disconnect();
  };
}
