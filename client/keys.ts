/** Storage keys, all under the product-specific prefix from content (site.yaml storageKey). */
export const keys = (prefix: string) => ({
  /** The saved language: essential, stored even without consent. */
  lang: `${prefix}.lang`,
  consent: `${prefix}.consent`,
  attribution: `${prefix}.attribution`,
  returning: `${prefix}.returning`,
  /** Session storage. */
  fromStealth: 'from_stealth',
  pending: `${prefix}.pending`,
  /** Session storage: whether this browser session is a 'new' or a 'return' visit (set with consent). */
  visit: `${prefix}.visit`,
  /** Session storage: the call to action was dismissed (interface state, no consent needed). */
  ctaDismissed: `${prefix}.ctaDismissed`,
});
