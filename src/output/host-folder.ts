/**
 * `<out>.host/`: the files a host reads but must never serve as pages (nginx.conf, the CloudFront
 * function, the rules `site serve` applies). A sibling of the output folder, so no host's web
 * root holds it. A build writes them into its own build folder and publishes them with its pages
 * (output/publish.ts: `<out>.host` links through the live build); watch's own folder is replaced
 * whole here (temp folder + rename).
 */
import { promises as fs, readdirSync } from 'node:fs';
import path from 'node:path';
import type { OutputFile } from '../assets/bundle.ts';

/**
 * Every file a host writer puts beside the web root (src/output/hosts/, `beside`), for any host: a
 * `<out>.host` holding anything else holds files this tool did not write, and is never replaced.
 */
export const HOST_FILES = ['rules.json', 'nginx.conf', 'cloudfront-function.js', 'response-headers-policy.json', 'content-types.json', 'netlify.toml', 'wrangler.toml'] as const;

/** The sibling folder of an output folder: `dist` → `dist.host`. */
export function hostFolder(outDir: string): string {
  return `${path.resolve(outDir).replace(/[\\/]+$/, '')}.host`;
}

/** The files in `<out>.host` now (host files have no folders); [] when there is none. */
export function hostFolderFiles(outDir: string): string[] {
  try {
    return readdirSync(hostFolder(outDir), { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** Replace `<out>.host/` with exactly `files` (watch's folder; a build publishes them with its pages). */
export async function writeHostFolder(outDir: string, files: readonly OutputFile[]): Promise<void> {
  const target = hostFolder(outDir);
  const tmp = `${target}.tmp-${process.pid}-${Date.now()}`;
  const old = `${target}.old-${process.pid}-${Date.now()}`;
  try {
    for (const f of files) {
      const full = path.join(tmp, f.file);
      await fs.mkdir(path.dirname(full), { recursive: true });
      await fs.writeFile(full, f.content);
    }
    await fs.mkdir(tmp, { recursive: true });
    const hadOld = await fs.rename(target, old).then(
      () => true,
      (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return false;
        throw err;
      },
    );
    await fs.rename(tmp, target);
    if (hadOld) await fs.rm(old, { recursive: true, force: true });
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}
