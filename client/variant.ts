/** Call-to-action variant, chosen once on load by the spec's four rules in order. Pure. */
import { nameHash } from './names.ts';

export interface VariantInput {
  utmSource?: string;
  returning: boolean;
  /** Local hour 0-23. */
  hour: number;
  directActionSources: readonly string[];
  defaultVariant: string;
}

export function chooseVariant(i: VariantInput): string {
  if (i.utmSource && i.directActionSources.includes(nameHash(i.utmSource.toLowerCase()))) return 'direct_action';
  if (i.returning) return 'premium_service';
  if (i.hour >= 20 || i.hour <= 6) return 'personal_connection';
  return i.defaultVariant;
}
