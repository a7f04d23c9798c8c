/**
 * The registry's twin in the shell's server renderer (aliased by the server build): on the server
 * no remote is loaded, so every slot renders its fallback, which holds the module's server markup.
 */
import type { RemotePageModule } from '@yield/platform';

export function fetchRemotesManifest(): Promise<never> {
  return new Promise(() => {});
}

export function retryNeedsReload(): Promise<boolean> {
  return Promise.resolve(false);
}

export function loadRemoteModule(_remote: string, _module: string): Promise<RemotePageModule> {
  return new Promise(() => {});
}

export class RemoteLoadError extends Error {}

/** No remote is loaded on the server. */
export function loadedEntry(_remote: string): string | undefined {
  return undefined;
}

/** Errors are reported by browsers only. */
export function releaseOf(_entry: string | undefined): string | null {
  return null;
}
