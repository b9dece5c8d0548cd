/**
 * Listing sites' names and domains are data the pages need for attribution, but the visible copy
 * never names them, so the page data does not spell them out either: domains and utm_source values
 * are compared as hashes, and a referral's source label travels base64-encoded (discretion, not
 * secrecy: anyone who wants the list can still compute it). Shared by the build and the client.
 */

/** FNV-1a (32 bit) of a name, in base 36: short, stable, the same in Node and every browser. */
export function nameHash(name: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

/** A label as the page data carries it (UTF-8, base64). */
export function encodeLabel(label: string): string {
  const bytes = new TextEncoder().encode(label);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** The label back from `encodeLabel` (undefined if it is not one). */
export function decodeLabel(encoded: string): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}
