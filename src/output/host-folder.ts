/**
 * `<out>.host/`: the files a host reads but must never serve as pages (nginx.conf, the CloudFront
 * function, the rules `site serve` applies). A sibling of the output folder, so no host's web
 * root holds it; replaced whole (temp folder + rename) after the web root is published.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { OutputFile } from '../assets/bundle.ts';

/** The sibling folder of an output folder: `dist` → `dist.host`. */
export function hostFolder(outDir: string): string {
  return `${path.resolve(outDir).replace(/[\\/]+$/, '')}.host`;
}

/** Replace `<out>.host/` with exactly `files`. */
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
