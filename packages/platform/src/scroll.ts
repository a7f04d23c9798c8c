/** Scroll to a home section 100 ms after navigating to /. */
export const SECTION_SCROLL_DELAY_MS = 100;

/** How long a section stays pinned while the parts above it finish loading. */
export const SECTION_SETTLE_MS = 4000;

/** Anything the visitor does to move the page ends the pinning: their scroll wins. */
const USER_SCROLL_EVENTS = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

interface ScrollOptions {
  /** Wait before looking for the section (ms). */
  delay?: number;
  /** Give up if the section has not appeared after this long (ms). */
  timeoutMs?: number;
  /** Animate the first scroll. */
  smooth?: boolean;
  /** Keep the section at the top while the page above it is still growing (ms). */
  settleMs?: number;
}

/**
 * Scrolls to the element with this id after `delay` ms. The section may live in a remote that is
 * still loading, so it keeps looking for it (up to `timeoutMs`) instead of giving up at once.
 * Parts above it may also still be loading and push it down once they render; until `settleMs`
 * has passed, or the visitor scrolls themselves, every change of the page's height brings the
 * section back to the top. Returns a function that cancels all of it.
 */
export function scrollToSection(
  id: string,
  {
    delay = SECTION_SCROLL_DELAY_MS,
    timeoutMs = 5000,
    smooth = false,
    settleMs = SECTION_SETTLE_MS,
  }: ScrollOptions = {},
): () => void {
  let observer: MutationObserver | undefined;
  let giveUp: ReturnType<typeof setTimeout> | undefined;
  let unpin: (() => void) | undefined;

  const scroll = (el: Element) => {
    el.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block: 'start' });
    unpin = pin(el, settleMs);
  };
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
    unpin?.();
  };
}

/** Frames without scrolling after which a scroll counts as finished (about 100 ms). */
const STILL_FRAMES = 6;

/**
 * Keeps `el` at the top of the page for `settleMs`, or until the visitor scrolls on their own:
 * once scrolling has stopped, a section that is not where it should be (content above it
 * rendered, or an animation was cut short) is brought back with an instant scroll.
 */
function pin(el: Element, settleMs: number): () => void {
  if (settleMs <= 0 || typeof requestAnimationFrame === 'undefined') return () => {};
  const margin = parseFloat(getComputedStyle(el).scrollMarginTop) || 0;
  let lastY = window.scrollY;
  let still = 0;
  let frame = requestAnimationFrame(function check() {
    const y = window.scrollY;
    still = y === lastY ? still + 1 : 0;
    lastY = y;
    if (still >= STILL_FRAMES && el.isConnected) {
      const offset = el.getBoundingClientRect().top - margin;
      const maxY = document.documentElement.scrollHeight - window.innerHeight;
      const canReach = offset > 0 ? y < maxY - 1 : y > 0;
      if (Math.abs(offset) > 2 && canReach) {
        el.scrollIntoView({ behavior: 'auto', block: 'start' });
        still = 0;
      }
    }
    frame = requestAnimationFrame(check);
  });
  const stop = () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    for (const type of USER_SCROLL_EVENTS) window.removeEventListener(type, stop);
  };
  const timer = setTimeout(stop, settleMs);
  for (const type of USER_SCROLL_EVENTS) {
    window.addEventListener(type, stop, { passive: true, once: true });
  }
  return stop;
}
