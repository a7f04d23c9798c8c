import { act, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { useDrawWhenNear, type DrawWhenNearOptions } from './draw-when-near.ts';

/** A controllable IntersectionObserver: tests decide when an element comes near. */
class FakeObserver {
  static all: FakeObserver[] = [];
  readonly elements: Element[] = [];
  disconnected = false;
  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {
    FakeObserver.all.push(this);
  }
  observe(element: Element) {
    this.elements.push(element);
  }
  disconnect() {
    this.disconnected = true;
  }
  /** Reports the observed element as intersecting (or not). */
  fire(isIntersecting = true) {
    const entries = this.elements.map((target) => ({ target, isIntersecting }));
    this.callback(entries as IntersectionObserverEntry[], this as unknown as IntersectionObserver);
  }
}

function Chart({ name, options }: { name: string; options: DrawWhenNearOptions }) {
  const ref = useRef<HTMLDivElement>(null);
  const ready = useDrawWhenNear(ref, options);
  return (
    <div ref={ref} data-testid={name}>
      {ready ? 'drawn' : 'waiting'}
    </div>
  );
}

/** Lets timers, promises and React's transition updates run. */
async function flush(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeObserver.all = [];
  vi.stubGlobal('IntersectionObserver', FakeObserver);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('useDrawWhenNear', () => {
  it('waits until the element comes near the viewport, then stays drawn', async () => {
    render(<Chart name="chart" options={{ rootMargin: '400px' }} />);
    await flush(1000);
    expect(screen.getByTestId('chart')).toHaveTextContent('waiting');
    const observer = FakeObserver.all[0]!;
    expect(observer.options.rootMargin).toBe('400px');
    expect(observer.elements).toEqual([screen.getByTestId('chart')]);

    observer.fire(false);
    await flush();
    expect(screen.getByTestId('chart')).toHaveTextContent('waiting');

    observer.fire(true);
    await flush();
    expect(screen.getByTestId('chart')).toHaveTextContent('drawn');
    expect(observer.disconnected).toBe(true);
  });

  it('draws at once where IntersectionObserver does not exist', async () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(<Chart name="chart" options={{ rootMargin: '200px' }} />);
    await flush();
    expect(screen.getByTestId('chart')).toHaveTextContent('drawn');
  });

  it('with afterIdle, starts watching only once the browser is idle after a frame', async () => {
    const idle: IdleRequestCallback[] = [];
    vi.stubGlobal('requestIdleCallback', (cb: IdleRequestCallback) => idle.push(cb));
    vi.stubGlobal('cancelIdleCallback', () => undefined);
    render(<Chart name="chart" options={{ rootMargin: '300px 0px', afterIdle: true }} />);
    await flush(100);
    expect(FakeObserver.all).toHaveLength(0);
    act(() => idle.forEach((cb) => cb({} as IdleDeadline)));
    expect(FakeObserver.all).toHaveLength(1);
    FakeObserver.all[0]!.fire();
    await flush();
    expect(screen.getByTestId('chart')).toHaveTextContent('drawn');
  });

  it('with delayMs, draws that long after coming near', async () => {
    render(<Chart name="chart" options={{ rootMargin: '300px 0px', delayMs: 120 }} />);
    await flush();
    FakeObserver.all[0]!.fire();
    await flush(100);
    expect(screen.getByTestId('chart')).toHaveTextContent('waiting');
    await flush(20);
    expect(screen.getByTestId('chart')).toHaveTextContent('drawn');
  });

  it('with load, charts take turns: each loads its code after the previous one, then draws', async () => {
    const calls: string[] = [];
    let releaseFirst: () => void = () => undefined;
    const loadFirst = () => {
      calls.push('first');
      return new Promise<void>((resolve) => (releaseFirst = resolve));
    };
    const loadSecond = () => {
      calls.push('second');
      return Promise.resolve();
    };
    render(
      <>
        <Chart name="first" options={{ rootMargin: '200px', load: loadFirst }} />
        <Chart name="second" options={{ rootMargin: '200px', load: loadSecond }} />
      </>,
    );
    await flush();
    FakeObserver.all.forEach((observer) => observer.fire());
    await flush(50);
    // The second chart's code is not even requested while the first one's is loading.
    expect(calls).toEqual(['first']);
    expect(screen.getByTestId('first')).toHaveTextContent('waiting');

    releaseFirst();
    await flush();
    expect(calls).toEqual(['first', 'second']);
    expect(screen.getByTestId('first')).toHaveTextContent('drawn');
    await flush(10);
    expect(screen.getByTestId('second')).toHaveTextContent('drawn');
  });

  it('stops watching when the chart goes away before it is drawn', async () => {
    const { unmount } = render(<Chart name="chart" options={{ rootMargin: '200px' }} />);
    await flush();
    const observer = FakeObserver.all[0]!;
    unmount();
    expect(observer.disconnected).toBe(true);
  });
});
