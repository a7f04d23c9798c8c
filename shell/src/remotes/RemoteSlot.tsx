import {
  Component,
  Suspense,
  createContext,
  lazy,
  useContext,
  useState,
  type ComponentType,
  type HTMLAttributes,
  type ReactNode,
} from 'react';
import type { ModuleRef } from '@yield/federation/pages';
import { FIRST_PAINT_ATTR, firstPaintKey, firstPaintOf } from '@yield/platform';
import {
  RemoteLoadError,
  loadRemoteModule,
  loadedEntry,
  releaseOf,
  retryNeedsReload,
} from './registry.ts';
import { reportRemoteError } from './report.ts';
import { HydratedSlots, SlotMounted, SlotPlaceholder } from './hydration.tsx';

type LazyPage = ComponentType;
const lazyCache = new Map<string, LazyPage>();

function lazyRemote(remote: string, module: string, attempt: number) {
  const key = `${remote}/${module}#${attempt}`;
  let page = lazyCache.get(key);
  if (!page) {
    page = lazy(() => loadRemoteModule(remote, module, { retry: attempt > 0 }));
    lazyCache.set(key, page);
  }
  return page;
}

/** Drops a remote's loaded modules: its slots load them anew (from its new release). */
export function forgetRemoteModules(remote: string): void {
  for (const key of lazyCache.keys()) if (key.startsWith(`${remote}/`)) lazyCache.delete(key);
}

interface BoundaryProps extends ModuleRef {
  children: ReactNode;
  onRetry: () => void;
}

/** Tells the API (per remote and release) what a boundary caught; never fails the page. */
function report(error: unknown, { remote, module }: ModuleRef) {
  try {
    reportRemoteError(error, {
      remote,
      module,
      release: releaseOf(loadedEntry(remote)),
      kind: error instanceof RemoteLoadError ? 'load' : 'render',
    });
  } catch (failure) {
    console.error('[remote-errors]', failure);
  }
}

/** Contains a remote that fails to load or throws: the rest of the page keeps working. */
class RemoteBoundary extends Component<BoundaryProps, { error: unknown }> {
  override state = { error: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown) {
    const { remote, module } = this.props;
    console.error(`[${remote}/${module}]`, error, (error as { cause?: unknown })?.cause);
    report(error, { remote, module });
  }

  override render() {
    if (this.state.error) return <RemoteFallback onRetry={this.props.onRetry} />;
    return this.props.children;
  }
}

/** What stands in for a part of the page that could not be loaded: a message and Retry. */
export function RemoteFallback({ onRetry }: { onRetry: () => void }) {
  return (
    <section className="remote-fallback" role="alert" aria-live="polite">
      <h2>This part of the page is unavailable</h2>
      <p>It could not be loaded just now. The rest of the site keeps working.</p>
      <button type="button" className="btn btn-primary" onClick={onRetry}>
        Retry
      </button>
    </section>
  );
}

export function RemoteLoading({ minHeight = '60vh' }: { minHeight?: string }) {
  return (
    <div className="remote-loading" style={{ minHeight }} aria-busy="true" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">Loading…</span>
    </div>
  );
}

/**
 * Where a slot finds the server markup of its module (first paint): in the browser, what the
 * page arrived with; in the shell's server renderer, what the remote rendered.
 */
export const FirstPaintSource = createContext<(key: string) => string | undefined>(firstPaintOf);

/** While a module loads: its server markup if the page arrived with it, else a spinner. */
function SlotFallback({ remote, module, minHeight }: RemoteSlotProps) {
  const key = firstPaintKey(remote, module);
  const html = useContext(FirstPaintSource)(key);
  if (html === undefined) return <RemoteLoading minHeight={minHeight} />;
  return (
    <FirstPaintBox {...{ [FIRST_PAINT_ATTR]: key }} dangerouslySetInnerHTML={{ __html: html }} />
  );
}

/**
 * Server markup on screen: painted, not yet usable, so hidden from assistive technology and input
 * until the app's own render replaces it. Laid out as if it were not there (display: contents).
 */
export function FirstPaintBox(props: HTMLAttributes<HTMLDivElement>) {
  return <div className="first-paint" inert aria-hidden="true" {...props} />;
}

export interface RemoteSlotProps extends ModuleRef {
  minHeight?: string;
}

/** Renders one exposed module of a remote inside its own boundary with a Retry fallback. */
export function RemoteSlot({ remote, module, minHeight }: RemoteSlotProps) {
  const [attempt, setAttempt] = useState(0);
  // Server only: the module's markup goes here as the boundary's content, for the browser to hydrate.
  const inPlace = useContext(HydratedSlots)(firstPaintKey(remote, module));
  const Page = lazyRemote(remote, module, attempt);
  return (
    <RemoteBoundary
      key={attempt}
      remote={remote}
      module={module}
      onRetry={async () => {
        if (await retryNeedsReload(remote)) window.location.reload();
        else setAttempt((n) => n + 1);
      }}
    >
      <Suspense fallback={<SlotFallback remote={remote} module={module} minHeight={minHeight} />}>
        {inPlace ? (
          <SlotPlaceholder slot={firstPaintKey(remote, module)} />
        ) : (
          <SlotMounted>
            <Page />
          </SlotMounted>
        )}
      </Suspense>
    </RemoteBoundary>
  );
}
