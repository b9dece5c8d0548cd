/**
 * What the live build's web root holds now, against the record of that very build: the entries no
 * build wrote (a new build replaces the folder whole, so the build is refused instead of losing
 * them: cli.ts), whether every recorded file is still there, and each recorded file's stamp (size
 * and modification time: a page edited by hand is neither taken as unchanged nor carried).
 * One walk and one stat per file answer all three, when the build starts. Before, the stray check
 * and the "nothing changed" check each walked the 4,700 folders of a 4,000-post site, and a
 * second thread stamped the files for the carry stage: a survey here costs 15-40 ms at 4,800
 * files, a thread's start alone 40-50 ms (measured on the 2-core VM, docs/benchmarks.md).
 */
import { readdirSync, statSync, type Dirent } from 'node:fs';

export interface LiveSurvey {
  /** Entries of the web root no build wrote (folders end in `/`), sorted. Dotfiles, links and empty folders count. */
  stray: string[];
  /** Every recorded file is there, as a file. */
  complete: boolean;
  /** Each recorded file's stamp (`size:mtimeNs`, '-' when gone), by file. */
  stamps: Map<string, string>;
}

/** Survey the web root `dir` against the files the record of its build lists. */
export function surveyLive(dir: string, files: readonly string[]): LiveSurvey {
  const recorded = new Set(files);
  const folders = new Set<string>();
  for (const f of files) for (let i = f.indexOf('/'); i >= 0; i = f.indexOf('/', i + 1)) folders.add(f.slice(0, i));
  const stray: string[] = [];
  let seen = 0;
  // Paths joined by hand: recorded paths are relative, `/`-separated and clean.
  const walk = (abs: string, rel: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const sub = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory() && folders.has(sub)) walk(`${abs}/${e.name}`, sub);
      else if (e.isFile() && recorded.has(sub)) seen++;
      else stray.push(e.isDirectory() ? `${sub}/` : sub);
    }
  };
  walk(dir, '');
  const stamps = new Map<string, string>();
  for (const f of files) stamps.set(f, outputStamp(`${dir}/${f}`));
  return { stray: stray.sort(), complete: seen === files.length, stamps };
}

/** A file's size and modification time (`size:mtimeNs`), '-' when it is gone. */
export function outputStamp(file: string): string {
  const st = statSync(file, { bigint: true, throwIfNoEntry: false });
  return st ? `${st.size}:${st.mtimeNs}` : '-';
}
