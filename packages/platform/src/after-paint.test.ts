/**
 * The inline script a painted page runs (AFTER_PAINT_SCRIPT): nothing is requested before the
 * browser reports the first contentful paint; then the page's reads and scripts are preloaded and
 * the entry script added, once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AFTER_PAINT_ATTR,
  AFTER_PAINT_SCRIPT,
  FIRST_PAINT_DATA_ID,
} from './first-paint-contract.ts';

type PaintCallback = (
  list: { getEntriesByName: (name: string) => unknown[] },
  observer: { disconnect: () => void },
) => void;

let observed: PaintCallback[] = [];

class FakePaintObserver {
  static supportedEntryTypes = ['paint', 'largest-contentful-paint'];
  disconnected = false;
  constructor(private readonly callback: PaintCallback) {}
  observe(options: { type: string; buffered: boolean }) {
    expect(options).toEqual({ type: 'paint', buffered: true });
    observed.push((list) => {
      if (!this.disconnected) this.callback(list, this);
    });
  }
  disconnect() {
    this.disconnected = true;
  }
}

const firstContentfulPaint = () =>
  observed.forEach((callback) =>
    callback(
      { getEntriesByName: (name) => (name === 'first-contentful-paint' ? [{ name }] : []) },
      { disconnect: () => undefined },
    ),
  );

/** Runs the script as the page would, at the end of its body. */
function runStart() {
  document.head.innerHTML =
    `<script type="application/json" id="${FIRST_PAINT_DATA_ID}">` +
    JSON.stringify({
      settings: {},
      preload: ['/bootstrap.1.js', '/remotes/mfe-content/remoteEntry.js'],
      fetch: ['/remotes.json', '/api/settings'],
      styles: ['/remotes/mfe-content/risks.css'],
    }) +
    '</script>';
  const script = document.createElement('script');
  script.setAttribute(AFTER_PAINT_ATTR, '');
  script.setAttribute('data-src', '/main.1a2b.js');
  document.body.append(script);
  vi.spyOn(document, 'currentScript', 'get').mockReturnValue(script);
  // The script's text, run in the page's global scope.
  new Function(AFTER_PAINT_SCRIPT)();
}

const requested = () =>
  [...document.head.querySelectorAll('link, script[src]')].map((element) =>
    element instanceof HTMLLinkElement
      ? `${element.as} ${element.getAttribute('href')}${element.crossOrigin ? ` (${element.crossOrigin})` : ''}`
      : `entry ${element.getAttribute('src')}`,
  );

const ALL = [
  'fetch /remotes.json (anonymous)',
  'fetch /api/settings (anonymous)',
  'style /remotes/mfe-content/risks.css',
  'script /bootstrap.1.js',
  'script /remotes/mfe-content/remoteEntry.js',
  'entry /main.1a2b.js',
];

beforeEach(() => {
  vi.useFakeTimers();
  observed = [];
  vi.stubGlobal('PerformanceObserver', FakePaintObserver);
  vi.stubGlobal('requestAnimationFrame', (callback: () => void) => setTimeout(callback, 16));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

describe('the after-paint start', () => {
  it('requests nothing before the first contentful paint is reported, then everything once', () => {
    runStart();
    vi.advanceTimersByTime(500);
    expect(requested()).toEqual([]);
    firstContentfulPaint();
    expect(requested()).toEqual([]); // in a task of its own, after the paint's
    vi.advanceTimersByTime(0);
    vi.advanceTimersByTime(5); // the tasks that add them, four each
    expect(requested()).toEqual(ALL);
    // Neither a second report nor the one-second fallback starts it again.
    firstContentfulPaint();
    vi.advanceTimersByTime(2000);
    expect(requested()).toEqual(ALL);
  });

  it('starts after a second when no paint is reported', () => {
    runStart();
    vi.advanceTimersByTime(999);
    expect(requested()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(requested()).toEqual(ALL.slice(0, 4));
    vi.advanceTimersByTime(5);
    expect(requested()).toEqual(ALL);
  });

  it('waits one frame where the browser has no paint timing', () => {
    vi.stubGlobal('PerformanceObserver', undefined);
    runStart();
    expect(requested()).toEqual([]);
    vi.advanceTimersByTime(16); // the frame
    expect(requested()).toEqual([]);
    vi.advanceTimersByTime(1); // the task after it
    vi.advanceTimersByTime(5);
    expect(requested()).toEqual(ALL);
  });

  it('adds the preloads and the entry four at a time, one task each, in their order', () => {
    runStart();
    firstContentfulPaint();
    vi.advanceTimersToNextTimer(); // the task after the paint's
    expect(requested()).toEqual(ALL.slice(0, 4));
    vi.advanceTimersToNextTimer();
    expect(requested()).toEqual(ALL);
  });

  it('starts at once in a hidden tab, which never paints', () => {
    vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    runStart();
    expect(requested()).toEqual(ALL.slice(0, 4));
    vi.advanceTimersByTime(0);
    expect(requested()).toEqual(ALL);
  });

  it('still adds the entry when the page data cannot be read', () => {
    runStart();
    document.getElementById(FIRST_PAINT_DATA_ID)!.textContent = '{broken';
    document.head.querySelectorAll('link').forEach((link) => link.remove());
    vi.advanceTimersByTime(1000);
    expect(requested()).toEqual(['entry /main.1a2b.js']);
  });
});
