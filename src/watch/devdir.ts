/**
 * Where `site watch` builds: a folder of its own in the build cache, never the production output,
 * so `watch --drafts` can never leave drafts where a deploy picks them up.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { BuildConfig } from '../config.ts';
import { hostFolder } from '../output/host-folder.ts';

/**
 * The dev output folder for these sources and options (one per content/templates/client/drafts
 * combination, so two sessions on different sites never share one), emptied: a session serves
 * only what it built itself, never pages left by an earlier one. Removed when the session stops
 * (removeDevOutDir), so sessions on temporary folders do not fill the cache.
 */
export function devOutDir(config: BuildConfig): string {
  const key = createHash('sha256').update([config.contentDir, config.templatesDir, config.clientDir, String(config.drafts), config.baseUrl ?? ''].join('\0')).digest('hex').slice(0, 12);
  const dir = path.join(config.cacheDir, `watch-${key}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Remove a session's dev folder and its host files when the session stops (it is never read again). */
export function removeDevOutDir(dir: string): void {
  try {
    for (const d of [dir, hostFolder(dir)]) rmSync(d, { recursive: true, force: true, maxRetries: 2 });
  } catch {
    // emptied by the next session on these sources anyway
  }
}
