import { afterIntroPainted } from './after-intro-painted.ts';

type Callback = (list: { getEntries: () => { element: Element | null }[] }) => void;

/** A stand-in for the browser's LCP observer that the test feeds entries to. */
function installObserver() {
  const observers: Callback[] = [];
  class FakeObserver {
    static supportedEntryTypes = ['largest-contentful-paint'];
    constructor(callback: Callback) {
      observers.push(callback);
    }
    observe() {}
    disconnect() {}
  }
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  return (element: Element | null) =>
    observers.forEach((callback) => callback({ getEntries: () => [{ element }] }));
}

function introOnScreen() {
  const intro = document.createElement('header');
  intro.innerHTML = '<p>Every yield source ranked…</p>';
  document.body.append(intro);
  intro.getBoundingClientRect = () => ({ top: 100 }) as DOMRect;
  return intro;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

describe('afterIntroPainted', () => {
  it("runs once the title block's own largest paint is reported", () => {
    const report = installObserver();
    const intro = introOnScreen();
    const callback = vi.fn();
    afterIntroPainted(intro, callback);
    report(document.createElement('div')); // another element: keep waiting
    expect(callback).not.toHaveBeenCalled();
    report(intro.querySelector('p'));
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it("runs at once when the largest paint was the server's first paint, since replaced", () => {
    const report = installObserver();
    const callback = vi.fn();
    afterIntroPainted(introOnScreen(), callback);
    report(null);
    expect(callback).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it('gives up waiting after 500 ms, and can be cancelled', () => {
    installObserver();
    const waited = vi.fn();
    afterIntroPainted(introOnScreen(), waited);
    vi.advanceTimersByTime(499);
    expect(waited).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(waited).toHaveBeenCalledTimes(1);

    const cancelled = vi.fn();
    const cancel = afterIntroPainted(introOnScreen(), cancelled);
    cancel();
    vi.advanceTimersByTime(1000);
    expect(cancelled).not.toHaveBeenCalled();
  });
});
