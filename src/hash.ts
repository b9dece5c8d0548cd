/** Content hashes for asset names and cache keys. */
import { createHash } from 'node:crypto';

/** First 10 hex digits of SHA-256: enough to tell builds apart, short in URLs. */
export function contentHash(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 10);
}

/**
 * Hex digits of a content hash in a published file name: 8 (32 bits) tell the versions of one
 * file apart, and every page names some 60 files, so each digit more costs ~60 bytes of every
 * document (R-VIS-8: the first round trip).
 */
export const NAME_HASH_LENGTH = 8;

/** The part of a content hash a published name carries. */
export function publishedHash(hash: string): string {
  return hash.slice(0, NAME_HASH_LENGTH);
}

/** `main.js` + hash → `main.3f2a9c1b.js`. */
export function hashedName(name: string, hash: string): string {
  const h = publishedHash(hash);
  const dot = name.lastIndexOf('.');
  return dot < 0 ? `${name}.${h}` : `${name.slice(0, dot)}.${h}${name.slice(dot)}`;
}
