/** Answers kept ready as bytes with their ETag (sent with 304 on a match by sendCached). */
import { createHash } from 'node:crypto';

export interface CachedBody {
  body: Buffer;
  etag: string;
}

/** A body already serialised (the scanner assembles its JSON from precomputed parts). */
export function cacheBytes(body: Buffer): CachedBody {
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  return { body, etag };
}

export function cacheBody(value: unknown): CachedBody {
  return cacheBytes(Buffer.from(JSON.stringify(value)));
}
