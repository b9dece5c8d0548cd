/** Where the project lives: templates, client sources and the build cache are found from here. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** The folder holding this project's package.json (works from src/ and from the bundled CLI). */
export function projectRoot(): string {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { bin?: { site?: string } }).bin?.site) return (cached = dir);
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot find the project root (package.json with a "site" bin)');
    dir = up;
  }
}

/** Git-ignored folder for build caches (bundles, processed images). */
export function cacheDir(): string {
  return path.join(projectRoot(), 'node_modules', '.cache', 'site');
}
