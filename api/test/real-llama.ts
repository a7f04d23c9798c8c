/** Where the real DeFiLlama recordings live: beside the repository, ../shared/real-llama from its root. */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REAL_LLAMA = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'shared',
  'real-llama',
);

/** Fails (never skips) with a clear message when the recordings are not there. */
export async function requireRealLlama(): Promise<void> {
  try {
    await access(REAL_LLAMA);
  } catch {
    throw new Error(`The real DeFiLlama recordings are missing: expected them in ${REAL_LLAMA}`);
  }
}
