/** Listing files on disk, shared by the image stage, the build record and watch. */
import { promises as fs } from 'node:fs';
import path from 'node:path';

/** Every file under `dir` (dotfiles skipped), relative with forward slashes, sorted; [] if absent. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (sub: string): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(path.join(dir, sub), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const rel = sub ? `${sub}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(rel);
      else if (e.isFile()) out.push(rel);
    }
  };
  await walk('');
  return out.sort();
}
