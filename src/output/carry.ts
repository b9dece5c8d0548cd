/**
 * Incremental builds across runs. The record of the last good build of an output folder holds its
 * input stamps and each route's input key (routes/inputs.ts). A build whose inputs are all
 * unchanged renders and writes nothing: the live build stays. Otherwise only routes whose key
 * changed are rendered; the others' files are hard-linked from the recorded build into the new
 * one (same bytes, no copy), which is then published as usual.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, mkdirSync, promises as fs, readdirSync, readFileSync, readlinkSync, realpathSync, statSync, type BigIntStats, type Dirent } from 'node:fs';
import path from 'node:path';
import type { BuildConfig } from '../config.ts';
import type { Diagnostic } from '../diagnostics.ts';
import type { BuildStats } from '../stats.ts';
import { dropStale, ignoredName, listFiles } from '../files.ts';
import { failPoint, liveBuild } from './publish.ts';
import { outputStamp, surveyLive, type LiveSurvey } from './survey.ts';
import { hostFolder } from './host-folder.ts';
import { writing } from './write-error.ts';

/** What the last good build of an output folder recorded. */
export interface BuildRecord {
  key: string;
  /** The non-content part of the key: another one means every page is rendered again. */
  code?: string;
  /** The part of `code` that compiles: the name of the kept compiled code (`code-<compiled>.v8`). */
  compiled?: string;
  /** Content file stamps (what changed since, for the summary), and the code files' stamps that carry a hash. */
  content?: Record<string, string>;
  /** A hash of the content files' inodes and change times (`InputStamps.ids`): "nothing changed" needs it unchanged too. */
  idsKey?: string;
  codeStamps?: Record<string, string>;
  /** `InputStamps.dirs`. */
  dirs?: Record<string, string>;
  /** The files the compiled code was made from outside the folders stamped anyway (`outsideInputs`), by content hash. */
  codeExtras?: Record<string, string>;
  /** Each route's input key by output file (routes/inputs.ts), and the key of the assets every page links. */
  routes?: Record<string, string>;
  assets?: string;
  /** A digest of each published post as other pages see it, by file (routes/inputs.ts `metaDigests`): an edit that changes none of these renders the edited posts' pages alone. */
  metas?: Record<string, string>;
  /** Pages showed a missing text as its key (a draft build): which ones is not recorded, so the next build renders all. */
  missingTexts?: boolean;
  /** The build's date (pages showing dates change with it). */
  today?: string;
  /** Output files of pages that read the list of posts (their keys depend on every post). */
  readsPosts?: string[];
  /** What its sitemap files show (output/sitemap.ts `SitemapInput.key`): the next build takes them as they are while it holds. */
  sitemap?: string;
  /** Each output file's size and modification time when published (`outputStamps`). */
  outputs?: Record<string, string>;
  /** The same for the host files beside the output (`hostStamps`): one edited by hand is written again. */
  hostOutputs?: Record<string, string>;
  /**
   * The id of the build this record describes (its folder in `.dist.builds`). The record is written
   * after publishing: a build killed in between leaves another build live than the one recorded,
   * and the next build, seeing them differ, renders everything again.
   */
  build?: string;
  /** Every file it wrote, relative to the output folder, sorted. */
  files: string[];
  diagnostics: Diagnostic[];
  stats: BuildStats;
}

/**
 * What a build reads, stamped: content, templates, client, the generator's own sources, the
 * options. Each input file counts by its path, size and modification time (as git's index and
 * make do): stat-ing 4,000 posts costs ~10 ms where reading and hashing them cost ~60 ms on every
 * build. A file saved again unchanged only costs a render of what reads it.
 */
export interface InputStamps {
  /** Everything: equal keys mean nothing changed at all. */
  key: string;
  /** Everything but the content folder: templates, client, generator, lock file and options. */
  code: string;
  /** `code` without the outside inputs (`recordedCodeKey`). Not recorded. */
  codeBase: string;
  /** The recorded build's outside inputs (`outsideInputs`) by their content now, before anything compiles. Not recorded. */
  outside?: Readonly<Record<string, string>>;
  /** Each content file's stamp, by content-relative path (what changed, for the summary). */
  content: Record<string, string>;
  /** The stamps of the content folders that hold files only (`contentFiles`): the next build lists such a folder again only when its stamp changed. */
  dirs?: Record<string, string>;
  /** Stamps of templates, client and generator files that carry a content hash (modified just before). */
  codeStamps: Record<string, string>;
  /** What compiles (templates, client, generator), by every stamp as it is: the key of the kept compiled code and code caches. */
  compiled: string;
  /** `compiled` and the options: the key of what loading keeps (the posts' cache, made with the schemas). */
  kept: string;
  /** The generator's code alone (src/, its entry, the lock file): the key of the posts' kept HTML (content/markdown-cache.ts). */
  generator: string;
  /**
   * The content folders' entries as the stamps listed them, by path: loading takes the post
   * folders' from here instead of listing 4,000 of them again (~20-40 ms). Not recorded.
   */
  listings?: ReadonlyMap<string, Dirent[]>;
  /**
   * Each content file's inode and change time (`ino:ctimeNs`), by path. Size and modification time
   * can be set back (`touch -r`, `cp -p`, a `mv` of another file of the same size and time), the
   * change time cannot: "nothing changed" needs these unchanged too (they are part of `key`), and
   * a post is left unread only when they are the ones kept with it (content/load.ts). A file whose
   * change time alone moved (chmod, a copy) makes a build that renders nothing again.
   */
  ids?: Readonly<Record<string, string>>;
  /** A hash of `ids` (recorded). */
  idsKey?: string;
}

/**
 * Content files stat-ed on another thread (the resident process's file thread: output/io-thread.ts)
 * while this one walks the folders: `stats` holds, per file of `files` (paths relative to the
 * content folder), its size, modification time, inode and change time (-1: none there).
 */
export interface ContentStats {
  files: readonly string[];
  stats: Promise<BigInt64Array | undefined>;
}

/** Fields of a file's stat, per file, in `ContentStats.stats`. */
const STAT_FIELDS = 4;

/** Stat `files` of `root` into a ContentStats array (on the file thread). */
export function statFiles(root: string, files: readonly string[]): BigInt64Array {
  const out = new BigInt64Array(files.length * STAT_FIELDS).fill(-1n);
  const dir = withSep(root);
  files.forEach((f, i) => {
    // (As stamp stats it: a link followed, a name that is no file left at -1.)
    const st = statSync(dir + f, { bigint: true, throwIfNoEntry: false });
    if (!st) return;
    out.set([st.size, st.mtimeNs, st.ino, st.ctimeNs], i * STAT_FIELDS);
  });
  return out;
}

/** A folder's path ending in a separator: files' relative paths are joined to it by hand (they are clean; path.join normalises). */
const withSep = (dir: string) => (dir.endsWith(path.sep) ? dir : dir + path.sep);

export async function inputStamps(config: BuildConfig, before?: BuildRecord, stated?: ContentStats): Promise<InputStamps> {
  const { code: codeKey, codeBase, outside, kept, generator, codeStamps, compiled } = await codeInputs(config, before);
  const content: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const listings = new Map<string, Dirent[]>();
  const dirs: Record<string, string> = {};
  // Each hash updated once with every line (an update per file cost ~4 ms of 4,000 posts).
  const keyLines: string[] = [];
  const idLines: string[] = [];
  const root = withSep(config.contentDir);
  const files = contentFiles(config.contentDir, listings, before, dirs);
  // The files the other thread stat-ed meanwhile (the walk stat-ed the folders); any other, here.
  const taken = stated && (await stated.stats.catch(() => undefined));
  const at = taken && new Map(stated!.files.map((f, i) => [f, i * STAT_FIELDS]));
  for (const f of files) {
    const i = at?.get(f);
    const st = i === undefined || taken![i]! < 0n ? undefined : { size: taken![i]!, mtimeNs: taken![i + 1]!, ino: taken![i + 2]!, ctimeNs: taken![i + 3]! };
    content[f] = stamp(root + f, before?.content?.[f], (id) => (ids[f] = id), st);
    keyLines.push(`${f}\0${content[f]}\n`);
    idLines.push(`${f}\0${ids[f]}\n`);
  }
  const idsDigest = createHash('sha256').update(idLines.join('')).digest('hex');
  const key = createHash('sha256').update(codeKey).update(config.today).update(keyLines.join(''));
  return { key: key.update(idsDigest).digest('hex'), code: codeKey, codeBase, ...(outside && { outside }), kept, generator, codeStamps, compiled, content, dirs, listings, ids, idsKey: idsDigest };
}

/**
 * The key of everything a build reads but content (`InputStamps.code`): templates, client,
 * generator, lock file and options. Builds without a record (in memory) use it too, to take their
 * compiled templates, model and client script from the last build of the same code.
 */
export async function codeInputs(config: BuildConfig, before?: BuildRecord): Promise<Pick<InputStamps, 'code' | 'codeBase' | 'outside' | 'kept' | 'generator' | 'codeStamps' | 'compiled'>> {
  // What compiles (templates, client, generator): the compiled code's key; then the options and the content folder.
  // Two keys. `compiled` names the kept compiled code and code caches by every stamp as it is (with
  // its hash while recent), so a key never stands for two contents. `plan` says whether the code
  // changed since the recorded build: a file counts by size and time, and by its hash only when
  // the hash says it changed while those did not (an edit within one clock tick). Counted by the
  // whole stamp, a stamp that only dropped its hash (no longer recent) changed that key, and the
  // next build rendered every page again (after a checkout or a copy of the templates).
  const code = createHash('sha256');
  const plan = createHash('sha256');
  // The generator's own code (its sources, entry and locked dependencies): what posts' markdown is rendered by.
  const generator = createHash('sha256');
  const codeStamps: Record<string, string> = {};
  code.update(JSON.stringify([config.templatesDir, config.clientDir]));
  plan.update(JSON.stringify([config.templatesDir, config.clientDir]));
  const plain = (st: string) => st.split(':').slice(0, 2).join(':');
  const take = (name: string, file: string): void => {
    const prior = before?.codeStamps?.[name];
    const s = stamp(file, prior);
    if (s.split(':').length > 2) codeStamps[name] = s;
    code.update(`${name}\0${s}\n`);
    // (By size and time, as bin/site.js names the bundle it runs: a stamp that drops its hash when no longer recent keeps the key.)
    if (!name.startsWith('templates/') && !name.startsWith('client/') && !name.startsWith('config:')) generator.update(`${name}\0${plain(s)}\n`);
    const racy = prior !== undefined && plain(prior) === plain(s) && !sameStamp(prior, s);
    plan.update(`${name}\0${racy ? s : plain(s)}\n`);
  };
  const [templates, client, src] = stampedFolders(config);
  for (const [label, dir] of [
    ['templates', templates!],
    ['client', client!],
    ['src', src!],
  ] as const) {
    for (const f of await listFiles(dir)) take(`${label}/${f}`, path.join(dir, f));
  }
  for (const f of ['bin/site.js', 'package-lock.json']) take(f, path.join(config.projectRoot, f));
  // What esbuild reads besides the sources: the tsconfig.json (paths, jsx) and package.json
  // (imports, type) of each folder from the templates and client up, present or not.
  for (const f of configFiles([templates!, client!])) take(`config:${f}`, f);
  // What the templates or client import from elsewhere (the recorded build's list), by content:
  // an edit there renders every page again and compiles again. (A build without a record knows no
  // list: the kept compiled code checks its own, build.ts readCompiled.)
  const outside = before?.codeExtras && Object.fromEntries(Object.keys(before.codeExtras).map((f) => [f, fileHash(f)]));
  const extras = outside ? extrasDigest(outside) : '';
  const compiled = code.update(extras).digest('hex');
  const options = JSON.stringify({ baseUrl: config.baseUrl, host: config.host, strict: config.strict, drafts: config.drafts, content: config.contentDir });
  const codeBase = createHash('sha256').update(plan.digest('hex')).update(options).digest('hex');
  return {
    code: withExtras(codeBase, extras),
    codeBase,
    ...(outside && { outside }),
    kept: createHash('sha256').update(compiled).update(options).digest('hex'),
    generator: generator.digest('hex'),
    codeStamps,
    compiled,
  };
}

/**
 * The code key to record for a build that compiled (or kept) code made from `extras`: a template
 * edit that adds an outside import must not make the next build render every page again.
 */
export function recordedCodeKey(stamps: Pick<InputStamps, 'codeBase'>, extras: Readonly<Record<string, string>>): string {
  return withExtras(stamps.codeBase, extrasDigest(extras));
}

const withExtras = (base: string, extras: string) => (extras ? createHash('sha256').update(base).update(extras).digest('hex') : base);

function extrasDigest(extras: Readonly<Record<string, string>>): string {
  const names = Object.keys(extras).sort();
  return names.length ? createHash('sha256').update(JSON.stringify(names.map((f) => [f, extras[f]]))).digest('hex') : '';
}

function configFiles(dirs: readonly string[]): string[] {
  const out = new Set<string>();
  for (let dir of dirs) {
    for (;;) {
      for (const name of ['tsconfig.json', 'jsconfig.json', 'package.json']) out.add(path.join(dir, name));
      const up = path.dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  return [...out];
}

/** Where the code key stamps every file: the templates, the client script and the generator's sources. */
function stampedFolders(config: BuildConfig): string[] {
  return [config.templatesDir, config.clientDir, path.join(config.projectRoot, 'src')];
}

/**
 * The compiled code's other inputs: files esbuild read outside the stamped folders and the
 * generator's node_modules (`outsideFiles`), a template's `import '../../shared.ts'`.
 * Each by its content's hash, taken after the compile. The compile may have read an older content
 * than that: a hash is trusted when the same content was there before the compile started
 * (`before`, the recorded list's hashes then), or when the file was last modified well before it
 * started (`since`); else it is '' (no content), and the next build compiles again.
 */
export function outsideInputs(config: BuildConfig, inputs: Iterable<string>, since: number, before?: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of outsideFiles(config, inputs)) {
    const hash = fileHash(f);
    const st = statSync(f, { throwIfNoEntry: false });
    // (A path an import tried and did not find counts as missing: fileHash's '-'.)
    out[f] = !st || before?.[f] === hash || st.mtimeMs < since - RACY_MS ? hash : '';
  }
  return out;
}

/**
 * Of the files esbuild read, those outside the stamped folders and the generator's node_modules
 * (its packages count by its package-lock.json; a site's own packages are outside inputs), for a
 * watch session to watch too.
 */
export function outsideFiles(config: BuildConfig, inputs: Iterable<string>): string[] {
  // (esbuild names files by their real paths: a stamped folder may be a link.)
  const folders = [...stampedFolders(config), path.join(config.projectRoot, 'node_modules')].flatMap((d) => [d, realPath(d)].map((p) => p + path.sep));
  return [...new Set(inputs)].filter((f) => !folders.some((d) => f.startsWith(d)));
}

/**
 * The outside inputs as `outsideInputs` recorded them: every one still has its content. `now`:
 * hashes this build took already (InputStamps.outside), not taken again.
 */
export function outsideInputsHold(extras: Readonly<Record<string, string>>, now?: Readonly<Record<string, string>>): boolean {
  return Object.entries(extras).every(([f, h]) => h !== '' && (now?.[f] ?? fileHash(f)) === h);
}

function realPath(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}

function fileHash(file: string): string {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('base64url');
  } catch {
    return '-';
  }
}

/**
 * Every file under the content folder as the build may read it: links followed while they stay
 * inside it (a post folder or text table may be a link, its target edited or relinked), the names
 * no build reads left out (files.ts `ignoredName`: a `.DS_Store` or an editor's swap file that
 * comes or goes changes nothing). A folder reached twice
 * through links is listed once. A link leading out of the content folder, to nothing or into a
 * loop counts as the link alone: nothing behind it is listed, stamped or read (the build reports
 * it: outside-content, or a missing file).
 */
function contentFiles(root: string, listings?: Map<string, Dirent[]>, before?: Pick<BuildRecord, 'dirs' | 'content'>, dirs?: Record<string, string>): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  // The recorded build's files by folder, for the folders whose stamp held (built on first use).
  let recorded: Map<string, string[]> | undefined;
  const recordedIn = (rel: string): string[] => {
    if (!recorded) {
      recorded = new Map();
      for (const f of Object.keys(before!.content ?? {})) {
        const slash = f.lastIndexOf('/');
        const dir = slash < 0 ? '' : f.slice(0, slash);
        const names = recorded.get(dir);
        if (names) names.push(f.slice(slash + 1));
        else recorded.set(dir, [f.slice(slash + 1)]);
      }
    }
    return recorded.get(rel) ?? [];
  };
  let rootReal: string | undefined;
  try {
    rootReal = realpathSync.native(root);
  } catch {
    return out;
  }
  const inside = (real: string) => real === rootReal || real.startsWith(rootReal + path.sep);
  // `real`: the folder's path with links resolved. Only a link needs realpath(3) (a cycle or a
  // folder reached twice goes through one); a plain folder's is its parent's plus its name.
  const walk = (dir: string, rel: string, real: string | undefined): void => {
    if (real === undefined) {
      try {
        real = realpathSync.native(dir);
      } catch {
        return;
      }
    }
    if (seen.has(real)) return;
    seen.add(real);
    // A folder that held files only, stamped as it was then (before it was listed; see dirStamp):
    // its entries are the files the record has in it, and it need not be listed again.
    const now = dirs && dirStamp(dir);
    if (now && before?.dirs?.[rel] === now) {
      const names = recordedIn(rel);
      listings?.set(dir, names.map((name) => new FileEntry(name, dir) as unknown as Dirent));
      for (const name of names) out.push(rel ? `${rel}/${name}` : name);
      dirs![rel] = now;
      return;
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true }).filter((e) => !ignoredName(e.name));
    } catch {
      out.push(rel ? `${rel}/` : ''); // an unreadable folder: stamped as such, the build reports it
      return;
    }
    listings?.set(dir, entries);
    if (now && entries.every((e) => e.isFile())) dirs![rel] = now;
    for (const e of entries) {
      const sub = rel ? `${rel}/${e.name}` : e.name;
      const full = `${dir}${path.sep}${e.name}`;
      // A link counts by what it points to, and the link itself (relinking to an equal file changes it).
      const link = e.isSymbolicLink();
      let isDir = e.isDirectory();
      if (link) {
        out.push(`${sub}@${readlinkSync(full)}`);
        let target: string;
        try {
          target = realpathSync.native(full);
        } catch {
          continue; // to nothing, or a loop (ELOOP)
        }
        if (!inside(target)) continue;
        isDir = statSync(full, { throwIfNoEntry: false })?.isDirectory() ?? false;
      }
      if (isDir) walk(full, sub, link ? undefined : path.join(real, e.name));
      else out.push(sub);
    }
  };
  walk(root, '', undefined);
  return out.sort();
}

/**
 * A folder's inode, modification and change times, taken before it is listed: adding, removing or
 * renaming an entry changes its modification time, so an equal stamp means the same entries (as
 * git's untracked cache trusts a folder's stat). None while that time is recent: an entry added in
 * the same clock tick as the listing would leave it as it was. (Listing 4,000 post folders took a
 * one-post rebuild ~25-40 ms; stamping them, half.)
 */
function dirStamp(dir: string): string | undefined {
  const st = statSync(dir, { bigint: true, throwIfNoEntry: false });
  if (!st?.isDirectory() || Date.now() - Number(st.mtimeNs / 1_000_000n) < RACY_MS) return undefined;
  return `${st.ino}:${st.mtimeNs}:${st.ctimeNs}`;
}

/** A listing's entry for a file of a folder whose stamp held (the loader asks only these). */
class FileEntry {
  constructor(
    readonly name: string,
    readonly parentPath: string,
  ) {}
  isFile(): boolean {
    return true;
  }
  isDirectory(): boolean {
    return false;
  }
  isSymbolicLink(): boolean {
    return false;
  }
}

/**
 * A file's size and modification time; with its content hash too when it was modified in the last
 * few seconds: file systems stamp times by a clock tick of up to several milliseconds, so an edit
 * of the same size just after a build could keep both (git's "racily clean" entries). A file
 * recorded that way is hashed again while its size and time still match (`before`). Once it is no
 * longer recent and its hash is the recorded one, its stamp is the plain one again: any later edit
 * changes its time. (Kept for good, the hash made every build after a checkout or a copy of 4,000
 * posts read and hash all of them: ~50 ms a build.) `sameStamp` counts that change as no change.
 */
function stamp(file: string, before?: string, identity?: (id: string) => void, taken?: Pick<BigIntStats, 'size' | 'mtimeNs' | 'ino' | 'ctimeNs'>): string {
  const st = taken ?? statSync(file, { bigint: true, throwIfNoEntry: false });
  if (!st) return '-';
  identity?.(`${st.ino}:${st.ctimeNs}`);
  const base = `${st.size}:${st.mtimeNs}`;
  const recent = Date.now() - Number(st.mtimeNs / 1_000_000n) < RACY_MS;
  if (!recent && !before?.startsWith(`${base}:`)) return base;
  const hashed = `${base}:${createHash('sha256').update(readFileSync(file)).digest('base64url')}`;
  return !recent && before === hashed ? base : hashed;
}
const RACY_MS = 3000;

/**
 * Two stamps of one file say the same content: equal, or `before` the hashed stamp that `after`
 * replaced once the file was no longer recent (stamp: only when the hash still matched).
 */
function sameStamp(before: string | undefined, after: string): boolean {
  return before === after || (before !== undefined && before.startsWith(`${after}:`));
}

/**
 * Content files added, changed or removed between two stamp sets, sorted. (Asked twice of the same
 * two by a build, by the check for "nothing changed" and by the route plan: the last answer is
 * kept, ~1.7 ms of 4,000 posts.)
 */
export function changedFiles(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>): string[] {
  if (lastChanged?.before !== before || lastChanged.after !== after) {
    const out = new Set<string>();
    for (const [f, s] of Object.entries(after)) if (!sameStamp(before[f], s)) out.add(f);
    for (const f of Object.keys(before)) if (!(f in after)) out.add(f);
    lastChanged = { before, after, files: [...out].sort() };
  }
  return lastChanged.files.slice();
}
let lastChanged: { before: object; after: object; files: string[] } | undefined;

/** Where the record of `config.outDir`'s last good build is kept. */
export function recordFile(config: BuildConfig): string {
  const id = createHash('sha256').update(config.outDir).digest('hex').slice(0, 12);
  return path.join(config.cacheDir, `last-build-${id}.json`);
}

/**
 * The record this process last wrote, by its file's identity (device, inode, size, change time):
 * the resident process (src/resident/) reads it back without parsing ~1 MB of JSON. Frozen, so no
 * build changes what the file says. A file replaced or touched since is read from disk.
 */
let written: { file: string; id: string; record: BuildRecord } | undefined;

/** A file's identity (device, inode, size, change and modification times): another one means it was written again. */
export function fileId(file: string): string | undefined {
  const st = statSync(file, { bigint: true, throwIfNoEntry: false });
  return st && `${st.dev}:${st.ino}:${st.size}:${st.ctimeNs}:${st.mtimeNs}`;
}

/** The record of the last good build of this output folder; none when absent, unreadable or not of this shape. */
export async function readRecord(config: BuildConfig): Promise<BuildRecord | undefined> {
  const file = recordFile(config);
  try {
    if (written?.file === file && written.id === fileId(file)) return written.record;
    const record: unknown = JSON.parse(await fs.readFile(file, 'utf8'));
    return isRecord(record) ? record : undefined;
  } catch {
    return undefined;
  }
}

/** `record` and the tables and lists in it, frozen. */
function frozen(record: BuildRecord): BuildRecord {
  for (const v of Object.values(record)) if (typeof v === 'object' && v !== null) Object.freeze(v);
  return Object.freeze(record);
}

/** A record as this version writes it (a damaged or older one is no record: everything is rendered). */
function isRecord(r: unknown): r is BuildRecord {
  const o = r as Record<string, unknown>;
  const str = (v: unknown) => typeof v === 'string';
  const opt = (v: unknown, ok: (v: unknown) => boolean) => v === undefined || ok(v);
  const strings = (v: unknown) => Array.isArray(v) && v.every(str);
  const table = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every(str);
  return (
    typeof r === 'object' && r !== null && str(o.key) && opt(o.build, str) && strings(o.files) && Array.isArray(o.diagnostics) && typeof o.stats === 'object' && o.stats !== null &&
    opt(o.code, str) && opt(o.compiled, str) && opt(o.content, table) && opt(o.idsKey, str) && opt(o.codeStamps, table) && opt(o.codeExtras, table) && opt(o.dirs, table) && opt(o.routes, table) && opt(o.metas, table) && opt(o.outputs, table) && opt(o.hostOutputs, table) && opt(o.assets, str) && opt(o.today, str) && opt(o.readsPosts, strings) && opt(o.missingTexts, (v) => typeof v === 'boolean')
  );
}

/**
 * Size and modification time of each output file, as published (a page edited by hand afterwards
 * is not carried). `known`: stamps already taken (carried files: a hard link shares its inode's).
 */
export function outputStamps(outDir: string, files: readonly string[], known?: ReadonlyMap<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of files) out[f] = known?.get(f) ?? outputStamp(path.join(outDir, f));
  return out;
}

/** Each host file beside the output (`<out>.host/`) by name, stamped as `outputStamp` does. */
export function hostStamps(outDir: string): Record<string, string> {
  const dir = hostFolder(outDir);
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return {};
  }
  return outputStamps(dir, names);
}

/**
 * Record a published build (what lets the next one carry it over). Written after publishing, so it
 * never throws: a cache that cannot be written only costs the next build a full render, and the
 * message saying so is returned (a warning) instead.
 */
export async function writeRecord(config: BuildConfig, record: BuildRecord): Promise<string | undefined> {
  const file = recordFile(config);
  try {
    failPoint('record');
    await fs.mkdir(config.cacheDir, { recursive: true });
    written = undefined;
    await fs.writeFile(`${file}.${process.pid}.tmp`, JSON.stringify(record));
    await fs.rename(`${file}.${process.pid}.tmp`, file);
    const id = fileId(file);
    if (id) written = { file, id, record: frozen(record) };
  } catch (err) {
    await fs.rm(file, { force: true }).catch(() => undefined);
    return `the build is published, but its record could not be written to ${file} (${(err as Error).message}): the next build renders everything instead of carrying it over`;
  }
  // Records of output folders not built for a week (temporary folders, tests) are dropped.
  dropStale(config.cacheDir, 'last-build-', 7 * 86_400_000);
  return undefined;
}

/**
 * True when the output folder still holds exactly the files the record lists, none changed since.
 * `live`: the live build as surveyed when the build started (cli.ts), else surveyed now.
 */
export function outputIntact(config: BuildConfig, record: BuildRecord, live = surveyLive(config.outDir, record.files)): boolean {
  if (live.stray.length || !live.complete) return false;
  const stamps = record.outputs;
  return !stamps || record.files.every((f) => stamps[f] === undefined || stamps[f] === live.stamps.get(f));
}

/**
 * The stamp output file `f` (at `source`) is carried with: false when it changed or went since it
 * was published (edited by hand: rendered again, not carried), undefined when the record has no
 * stamp for it (taken unchecked). `now`: stamps taken at the build's start, else it is stat-ed.
 */
export function carriedStamp(f: string, source: string, expected?: Readonly<Record<string, string>>, now?: ReadonlyMap<string, string>): string | undefined | false {
  const want = expected?.[f];
  if (want === undefined) return undefined;
  return (now?.get(f) ?? outputStamp(source)) === want ? want : false;
}

/**
 * Hard-link each of `files` of the current output into `staging` (copy where linking is refused);
 * returns the files that could not be taken (gone from the output, or changed since published
 * when `expected` has their stamps: the caller renders them). `stamps` gets the stamp of each
 * file linked whose stamp was checked. `stopped`: asked before each file; true ends the carry
 * there (a stop signal: the folder is being removed). `copied` gets the files copied.
 * Synchronous: one link is a few microseconds, a promise round trip through the thread pool costs
 * more than the link (output/writer.ts). The resident process links on a thread of its own
 * (output/io-thread.ts).
 */
export function carryOver(
  outDir: string,
  staging: string,
  files: Iterable<string>,
  opts: { expected?: Readonly<Record<string, string>>; stamps?: Map<string, string>; now?: ReadonlyMap<string, string>; shownDir?: string; stopped?: () => boolean; copied?: string[] } = {},
): string[] {
  const { expected, stamps, now, shownDir = staging, stopped, copied } = opts;
  // Paths joined by hand: output paths are relative, `/`-separated and clean (the route table's),
  // and path.join's normalising was a third of this loop's own time at 4,700 files.
  const dirs = new Set<string>();
  const missing: string[] = [];
  for (const f of files) {
    if (stopped?.()) break;
    const source = `${outDir}/${f}`;
    const stamp = carriedStamp(f, source, expected, now);
    if (stamp === false) {
      missing.push(f);
      continue;
    }
    const slash = f.lastIndexOf('/');
    const dir = slash < 0 ? '' : f.slice(0, slash);
    const target = `${staging}/${f}`;
    writing(shownDir, f, () => {
      if (!dirs.has(dir)) {
        mkdirSync(`${staging}/${dir}`, { recursive: true });
        dirs.add(dir);
      }
      try {
        linkSync(source, target);
        if (stamp !== undefined) stamps?.set(f, stamp); // the link's stamp: the same inode
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') missing.push(f);
        else {
          copyFileSync(source, target);
          copied?.push(f); // (a stamp of its own: not the page's it was copied from)
        }
      }
    });
  }
  return missing;
}

/**
 * The last build's result when nothing changed since it: the same inputs (`stamps`), the build in
 * place is the one recorded, and its files and host files are all there. Then the build ends here:
 * nothing is rendered, written or published (the CLI checks this before loading the build itself).
 */
export async function unchangedResult(config: BuildConfig, stamps: InputStamps, last: BuildRecord | undefined, started: number, live?: LiveSurvey): Promise<{ diagnostics: Diagnostic[]; stats: BuildStats } | undefined> {
  if (!last || last.build === undefined || last.build !== liveBuild(config.outDir)) return undefined;
  // Other keys, the same inputs: only stamps that dropped their hash (stamp; a code file's drop
  // keeps the key). Recorded anew, so the next build stamps without reading those files.
  // (Or folder stamps the record lacks: a record of an older version, or a folder listed in its racy window.)
  const restamped = last.key !== stamps.key || JSON.stringify(last.codeStamps ?? {}) !== JSON.stringify(stamps.codeStamps) || !sameTable(last.dirs ?? {}, stamps.dirs ?? {});
  if (restamped && !sameInputs(config, stamps, last)) return undefined;
  if (!existsSync(path.join(hostFolder(config.outDir), 'rules.json')) || !outputIntact(config, last, live)) return undefined;
  // The host files as published (a record without their stamps cannot vouch for them).
  if (!last.hostOutputs || !sameTable(last.hostOutputs, hostStamps(config.outDir))) return undefined;
  // (Not over the record of a build another process has published meanwhile: that one stands.)
  if (restamped && liveBuild(config.outDir) === last.build) await writeRecord(config, { ...last, key: stamps.key, content: stamps.content, dirs: stamps.dirs, idsKey: stamps.idsKey, codeStamps: stamps.codeStamps, compiled: stamps.compiled });
  const ms = performance.now() - started;
  return {
    diagnostics: last.diagnostics,
    stats: { ...last.stats, files: last.files.length, bytes: 0, ms, stages: { key: ms }, images: { ...last.stats.images, cached: last.stats.images.sources, encoded: 0 }, carried: last.files.length, incremental: undefined },
  };
}

function sameTable(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/** The same code, date and content files as the record, each stamp the same (sameStamp). */
function sameInputs(config: BuildConfig, stamps: InputStamps, last: BuildRecord): boolean {
  return last.code === stamps.code && last.today === config.today && last.content !== undefined && changedFiles(last.content, stamps.content).length === 0 && last.idsKey === stamps.idsKey;
}
