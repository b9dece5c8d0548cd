/**
 * Where `site watch` builds: a folder of its own in the build cache, never the production output,
 * so `watch --drafts` can never leave drafts where a deploy picks them up.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { BuildConfig } from '../config.ts';

/**
 * The dev output folder for these sources and options (one per content/templates/client/drafts
 * combination, so two sessions on different sites never share one), emptied: a session serves
 * only what it built itself, never pages left by an earlier one.
 */
export function devOutDir(config: BuildConfig): string {
  const key = createHash('sha256').update([config.contentDir, config.templatesDir, config.clientDir, String(config.drafts), config.baseUrl ?? ''].join('\0')).digest('hex').slice(0, 12);
  const dir = path.join(config.cacheDir, `watch-${key}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}
