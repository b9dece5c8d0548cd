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
});
