/**
 * Text from URLs, storage and form fields as the handoff can always send it: a string cut inside
 * an emoji (a lone UTF-16 surrogate) makes encodeURIComponent throw a URIError, so every such
 * string is made well-formed, and cutting never splits a character. Pure.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `s` with every lone surrogate replaced by U+FFFD (what String.prototype.toWellFormed does). */
export function wellFormed(s: string): string {
  return s.replace(LONE_SURROGATE, '\uFFFD');
}

/** The first `max` UTF-16 units of `s`, one fewer when that would end inside a surrogate pair. */
export function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  const end = /[\uD800-\uDBFF]/.test(s[max - 1] ?? '') ? max - 1 : max;
  return s.slice(0, end);
}
