/** Content hashes for asset names and cache keys. */
import { createHash } from 'node:crypto';

/** First 10 hex digits of SHA-256: enough to tell builds apart, short in URLs. */
export function contentHash(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 10);
}

/** `main.js` + hash → `main.3f2a9c1b7e.js`. */
export function hashedName(name: string, hash: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? `${name}.${hash}` : `${name.slice(0, dot)}.${hash}${name.slice(dot)}`;
}
