/** JSON inside `<script>` elements (JSON-LD, the client data), escaped so no content can close them. */

/** JSON that is safe inside `<script>`: no `<`, `>`, `&` or line separators survive literally. */
export function jsonForScript(value: unknown): string {
  if (typeof value === 'object' && value !== null && Object.isFrozen(value)) {
    // Frozen objects shared by many pages (the client data of every post of a language) are
    // serialised once per build instead of once per page.
    const hit = serialised.get(value);
    if (hit !== undefined) return hit;
    const json = escapeJson(value);
    serialised.set(value, json);
    return json;
  }
  return escapeJson(value);
}

const serialised = new WeakMap<object, string>();

const UNSAFE_IN_SCRIPT = /[<>&\u2028\u2029]/g;

function escapeJson(value: unknown): string {
  // One pass over the JSON instead of one per character.
  return JSON.stringify(value).replace(UNSAFE_IN_SCRIPT, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
