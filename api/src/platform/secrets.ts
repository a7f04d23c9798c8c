/** Secrets the process is given (JWT_SECRET, ALERTS_SECRET, METRICS_TOKEN) and keeps. */

/** Shortest secret accepted (JWT_SECRET, ALERTS_SECRET, the generated files), in bytes. */
export const MIN_SECRET_BYTES = 32;

/** Refuses a secret shorter than MIN_SECRET_BYTES, naming where it came from. */
export function assertStrongSecret(name: string, secret: string): void {
  const bytes = Buffer.byteLength(secret, 'utf8');
  if (bytes < MIN_SECRET_BYTES) {
    throw new Error(
      `${name} must be at least ${MIN_SECRET_BYTES} bytes long (it has ${bytes}); generate one with: openssl rand -base64 48`,
    );
  }
}
