/** The part of `semver` (no types of its own) the release checks use. */
declare module 'semver' {
  export function satisfies(version: string, range: string): boolean;
  export function validRange(range: string): string | null;
}
