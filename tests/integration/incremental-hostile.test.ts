/**
 * [R-INC-2] Hostile cases for incremental `site build`: an incremental build (node bin/site.js
 * build into one output folder, again and again) must give the same files and bytes, in the web
 * root and in `<out>.host/`, as a cold build of the same content into an empty folder; "Nothing
 * changed" must only be said when nothing changed; a damaged cache must never break a build.
 *
 * The cold build is made in memory with the same output path and options (host files such as
 * netlify.toml name the output folder); nothing of it touches the disk or the record.
 *
 * The incremental builds run the CLI's own entry in this process (`runMain`: the same option
 * parsing, output-folder checks, "Nothing changed" shortcut, record, carry and summary as
 * `site build`); a CLI process is spawned only where the process is what is tested: a build
 * killed or paused in the middle, and builds of one output folder from several processes at once.
 */
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, truncateSync, utimesSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { serialize } from 'node:v8';
import { describe, expect, it, vi } from 'vitest';
import { age, build, codeFile, differencesFromCold, fresh, ok, ownTemplates, pausedAtCarry, postsEntries, postsFile, recordFile, snapshot, spawnBuild, writePostsEntries } from '../helpers/incremental.ts';
import { edit, listFiles, ROOT } from '../helpers/site.ts';

const NOTHING = /^Nothing changed since the last build/;
const POST = 'blog/madrid-luxury-dining/en.md';

describe('[R-INC-2] incremental builds against hostile edits (same output as a cold build)', () => {
  // ---- data and options ----------------------------------------------------------------------

  it('a redirect added to and another removed from data/redirects.yaml', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    writeFileSync(path.join(content, 'data/redirects.yaml'), `${readFileSync(path.join(content, 'data/redirects.yaml'), 'utf8')}- { from: /madrid-new, to: /madrid-vip-escort }\n`);
    edit(content, 'data/redirects.yaml', /^- \{ from: \/monaco-escort.*\n/m, '');
    expect((await ok(build(content, out))).stdout).not.toMatch(NOTHING);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a scheduled post (dated after the build date) appears when SOURCE_DATE_EPOCH moves past its date', async () => {
    const { content, out } = fresh();
    edit(content, POST, /^date: .*$/m, 'date: 2025-11-24');
    await ok(build(content, out));
    const later = { SOURCE_DATE_EPOCH: '1764000000' };
    const r = await ok(build(content, out, [], later));
    expect(r.stdout).toMatch(/the build date changed \(2025-11-22 → 2025-11-24\)/);
    expect(listFiles(out)).toContain('blog/madrid-luxury-dining.html');
    // The cold build with the later date.
    const incremental = snapshot(out);
    rmSync(out, { recursive: true, force: true });
    rmSync(`${out}.host`, { recursive: true, force: true });
    rmSync(path.join(path.dirname(out), '.dist.builds'), { recursive: true, force: true });
    rmSync(recordFile(out), { force: true });
    await ok(build(content, out, [], later));
    const cold = snapshot(out);
    expect([...incremental.keys()]).toEqual([...cold.keys()]);
    expect([...cold].filter(([f, b]) => !b.equals(incremental.get(f)!)).map(([f]) => f)).toEqual([]);
  });

  // One option changed a test: four builds of every language in one test took 10.7 s in a busy CI run.
  it.each([
    { option: '--host nginx', before: [], after: ['--host', 'nginx'] },
    { option: '--drafts', before: ['--host', 'nginx'], after: ['--host', 'nginx', '--drafts'] },
  ])('$option added between builds of one output folder: every page rendered, as a cold build', async ({ before, after }) => {
    const { content, out } = fresh({ all: true });
    await ok(build(content, out, before));
    expect((await ok(build(content, out, after))).stdout).toMatch(/rendered every page: the templates, client script, generator or build options changed/);
    expect(await differencesFromCold(content, out, after)).toEqual([]);
  });

  // ---- editor save patterns -------------------------------------------------------------------

  it('touch without change, and delete + recreate with the same bytes: rendered again, same output', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    const file = path.join(content, 'i18n/en.yaml');
    const bytes = readFileSync(file);
    rmSync(file);
    writeFileSync(file, bytes);
    const now = new Date();
    utimesSync(path.join(content, 'site.yaml'), now, now);
    const r = await ok(build(content, out));
    expect(r.stdout).toMatch(/rendered 0 of \d+ pages/);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  // The clock moved past the racy window (stamp in src/output/carry.ts) without waiting for it.
  const later = <T>(run: () => Promise<T>): Promise<T> => {
    const now = Date.now() + 60_000;
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now);
    return run().finally(() => clock.mockRestore());
  };
  const contentStamps = (out: string): string[] => Object.values((JSON.parse(readFileSync(recordFile(out), 'utf8')) as { content: Record<string, string> }).content);

  it.each([
    { when: 'right after a build', at: <T>(run: () => Promise<T>) => run() },
    { when: 'by a build after the racy window', at: later },
  ])('a same-size edit that keeps the exact modification time is still seen $when', async ({ at }) => {
    const { content, out } = fresh();
    const file = path.join(content, POST);
    // A time a Date can hold exactly (whole milliseconds): set back after the edit, the stamp's
    // nanoseconds are the same again (statSync's Date would drop the copy's sub-millisecond part).
    const when = new Date(Math.floor(Date.now() / 1000) * 1000);
    utimesSync(file, when, when);
    await ok(build(content, out));
    const before = readFileSync(file, 'utf8');
    const after = before.replace('title: "An Evening', 'title: "An EVENING');
    expect(after.length).toBe(before.length);
    writeFileSync(file, after);
    // Same second-and-nanosecond time as the stamped one (a coarse clock tick, or a tool that keeps times).
    utimesSync(file, when, when);
    expect(statSync(file, { bigint: true }).mtimeNs).toBe(BigInt(when.getTime()) * 1_000_000n);
    const r = await at(() => ok(build(content, out)));
    expect(r.stdout).toMatch(/rendered \d+ of \d+ pages \(blog\/madrid-luxury-dining\/en\.md changed\)/);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a same-size edit whose modification time is set back (touch -r), alone: not "nothing changed" (its change time moved), as a cold build', async () => {
    const { content, out } = fresh();
    age(content);
    await ok(build(content, out));
    const file = path.join(content, POST);
    const { atime, mtime } = statSync(file);
    const before = readFileSync(file, 'utf8');
    const after = before.replace(/^title: "(.)/m, (_m, c: string) => `title: "${c === 'X' ? 'Y' : 'X'}`);
    expect(Buffer.byteLength(after)).toBe(Buffer.byteLength(before));
    writeFileSync(file, after);
    utimesSync(file, atime, mtime);
    const r = await ok(build(content, out));
    expect(r.stdout).not.toMatch(NOTHING);
    expect(await differencesFromCold(content, out)).toEqual([]);
    // Then nothing changed: said again.
    expect((await ok(build(content, out))).stdout).toMatch(NOTHING);
  });

  it('content built right after a copy is hashed once more when no longer recent, then stamped by size and time: nothing changed either time', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    // Copied just now: every file is recent, so its stamp carries its hash.
    expect(contentStamps(out).filter((st) => st.split(':').length === 3).length).toBeGreaterThan(20);
    const pages = listFiles(out).map((f) => statSync(path.join(out, f)).ino);
    const again = await later(() => ok(build(content, out)));
    expect(again.stdout).toMatch(NOTHING);
    // Recorded without hashes now: the next builds stamp without reading a file.
    expect(contentStamps(out).filter((st) => st.split(':').length !== 2)).toEqual([]);
    expect(listFiles(out).map((f) => statSync(path.join(out, f)).ino)).toEqual(pages);
    expect((await later(() => ok(build(content, out)))).stdout).toMatch(NOTHING);
  });

  it('templates built right after a copy: the build after the racy window renders nothing, and a same-size template edit in one clock tick is still seen', async () => {
    const { content, out } = fresh();
    // The site's own templates and client beside its content (what `site init` makes), copied just now.
    for (const dir of ['templates', 'client']) cpSync(path.join(ROOT, dir), path.join(path.dirname(content), dir), { recursive: true });
    await ok(build(content, out));
    const codeStamps = (): string[] => Object.values((JSON.parse(readFileSync(recordFile(out), 'utf8')) as { codeStamps: Record<string, string> }).codeStamps);
    expect(codeStamps().length).toBeGreaterThan(20);
    // Only the stamps' hashes dropped (no longer recent): the code key is the same, and the record
    // keeps the plain stamps (later builds read none of those files again).
    expect((await later(() => ok(build(content, out)))).stdout).toMatch(NOTHING);
    expect(codeStamps()).toEqual([]);
    const file = path.join(path.dirname(content), 'templates/pages/NotFound.tsx');
    const when = new Date(Math.floor(Date.now() / 1000) * 1000);
    utimesSync(file, when, when);
    await ok(build(content, out)); // recent again: stamped with its hash
    // The same size and time, other bytes: its last character swapped.
    const before = readFileSync(file, 'utf8');
    writeFileSync(file, `${before.slice(0, -1)}${before.endsWith('\n') ? ' ' : '\n'}`);
    utimesSync(file, when, when);
    expect(statSync(file, { bigint: true }).mtimeNs).toBe(BigInt(when.getTime()) * 1_000_000n);
    expect(statSync(file).size).toBe(Buffer.byteLength(before));
    const r = await later(() => ok(build(content, out)));
    expect(r.stdout).toMatch(/rendered every page: the templates, client script, generator or build options changed/);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a file the templates import from outside templates/ counts as code: an edit to it renders every page again and compiles again, with or without a record of the folder', async () => {
    const { content, out } = fresh();
    const project = path.dirname(content);
    cpSync(path.join(ROOT, 'templates'), path.join(project, 'templates'), { recursive: true });
    // The client a link (esbuild names its files by their real paths): still a stamped folder, not an outside input.
    symlinkSync(path.join(ROOT, 'client'), path.join(project, 'client'));
    mkdirSync(path.join(project, 'shared'));
    const mark = path.join(project, 'shared', 'mark.ts');
    writeFileSync(mark, "export const mark = 'one';\n");
    const page = path.join(project, 'templates/pages/NotFound.tsx');
    const text = readFileSync(page, 'utf8').replace('<main id="main" tabIndex={-1}>', '<main id="main" tabIndex={-1} data-mark={mark}>');
    writeFileSync(page, `import { mark } from '../../shared/mark.ts';\n${text}`);
    // The templates an hour old: every build below, with or without a record, keys the kept
    // compiled code and V8's code cache the same way (by plain stamps, none within the racy window).
    age(path.join(project, 'templates'));
    const shown = (dir: string) => /data-mark="(\w+)"/.exec(readFileSync(path.join(dir, '404.html'), 'utf8'))?.[1];
    await ok(build(content, out));
    expect(shown(out)).toBe('one');
    expect(Object.keys((JSON.parse(readFileSync(recordFile(out), 'utf8')) as { codeExtras: Record<string, string> }).codeExtras)).toEqual([mark]);
    // The same length: V8's code cache of the old code must not be taken for the new (it checks the length only).
    writeFileSync(mark, "export const mark = 'two';\n");
    expect((await ok(build(content, out))).stdout).toMatch(/rendered every page: the templates, client script, generator or build options changed/);
    expect(shown(out)).toBe('two');
    expect(await differencesFromCold(content, out)).toEqual([]);
    // A folder never built: no record names the file, the kept compiled code checks it itself.
    writeFileSync(mark, "export const mark = 'six';\n");
    const other = path.join(project, 'other');
    await ok(build(content, other));
    expect(shown(other)).toBe('six');
    expect((await ok(build(content, out))).stdout).toMatch(/rendered every page/);
    expect(shown(out)).toBe('six');
    expect((await ok(build(content, out))).stdout).toMatch(NOTHING);
  });

  it('an outside import through a link pointed elsewhere, and a new file an import without an extension finds first: both compile again', async () => {
    const { content, out } = fresh();
    const project = path.dirname(content);
    ownTemplates(content);
    const shared = path.join(project, 'shared');
    mkdirSync(shared);
    for (const [f, v] of [['x2.ts', 'X = "two"'], ['x3.ts', 'X = "three"'], ['q.ts', 'Q = "qts"']]) writeFileSync(path.join(shared, f!), `export const ${v};\n`);
    symlinkSync('x2.ts', path.join(shared, 'x.ts'));
    const page = path.join(project, 'templates/pages/NotFound.tsx');
    const text = readFileSync(page, 'utf8').replace('<main id="main" tabIndex={-1}>', '<main id="main" tabIndex={-1} data-x={X} data-q={Q}>');
    writeFileSync(page, `import { X } from '../../shared/x.ts';\nimport { Q } from '../../shared/q';\n${text}`);
    for (const dir of ['templates', 'client', 'shared']) age(path.join(project, dir));
    const shown = () => /data-x="(\w+)" data-q="(\w+)"/.exec(readFileSync(path.join(out, '404.html'), 'utf8'))?.slice(1);
    await ok(build(content, out));
    expect(shown()).toEqual(['two', 'qts']);
    // The paths tried and not found are recorded as missing: no build renders again for them.
    expect((await ok(build(content, out))).stdout).toMatch(NOTHING);
    rmSync(path.join(shared, 'x.ts'));
    symlinkSync('x3.ts', path.join(shared, 'x.ts'));
    await ok(build(content, out));
    expect(shown()).toEqual(['three', 'qts']);
    writeFileSync(path.join(shared, 'q.tsx'), 'export const Q = "qtsx";\n');
    await ok(build(content, out));
    expect(shown()).toEqual(['three', 'qtsx']);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it("a package the templates require at run time from the site's own node_modules: an update of it renders every page again", async () => {
    const { content, out } = fresh();
    const project = path.dirname(content);
    const templates = ownTemplates(content);
    const pkg = path.join(project, 'node_modules', 'footer-word');
    mkdirSync(pkg, { recursive: true });
    const release = (version: string, word: string) => {
      writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'footer-word', version, main: 'index.js' }));
      writeFileSync(path.join(pkg, 'index.js'), `module.exports = { word: '${word}' };\n`);
    };
    release('1.0.0', 'first');
    const footer = path.join(templates, 'components', 'Footer.tsx');
    writeFileSync(footer, `import { word } from 'footer-word';\n${readFileSync(footer, 'utf8').replace('<footer className="site-footer"', '<footer data-word={word} className="site-footer"')}`);
    for (const dir of ['templates', 'client', 'node_modules']) age(path.join(project, dir));
    const shown = () => /data-word="(\w+)"/.exec(readFileSync(path.join(out, 'index.html'), 'utf8'))?.[1];
    // Builds in processes of their own: this one keeps the package as first required.
    await ok(spawnBuild(content, out));
    expect(shown()).toBe('first');
    expect((await ok(spawnBuild(content, out))).stdout).toMatch(NOTHING);
    release('1.0.1', 'again');
    expect((await ok(spawnBuild(content, out))).stdout).toMatch(/rendered every page/);
    expect(shown()).toBe('again');
  });

  it("what the model's schemas import from outside templates/ counts for the posts' and data's cache too, in a folder never built", async () => {
    const { content, out } = fresh();
    const project = path.dirname(content);
    ownTemplates(content);
    mkdirSync(path.join(project, 'shared'));
    const factor = (n: number) => writeFileSync(path.join(project, 'shared', 'm.ts'), `export const FACTOR = ${n};\n`);
    factor(2);
    const schemas = path.join(project, 'templates/model/schemas.ts');
    const text = readFileSync(schemas, 'utf8').replace('  confirmationMinutes: z.number().int().positive(),', '  confirmationMinutes: z.number().int().positive().transform((n) => n * FACTOR),');
    writeFileSync(schemas, `import { FACTOR } from '../../shared/m.ts';\n${text}`);
    // All an hour old: nothing in its racy window, so every build below keys its caches alike.
    for (const dir of ['templates', 'client', 'shared']) age(path.join(project, dir));
    const minutes = (dir: string) => Number(/I reply within (\d+)/.exec(readFileSync(path.join(dir, 'contact.html'), 'utf8'))?.[1]);
    await ok(build(content, out));
    const base = minutes(out) / 2;
    expect(base).toBeGreaterThan(0);
    // Another output folder (no record names m.ts): its validated data must not come from the cache.
    factor(4);
    const other = path.join(project, 'other');
    await ok(build(content, other));
    expect(minutes(other)).toBe(base * 4);
    factor(3);
    await ok(build(content, out));
    expect(minutes(out)).toBe(base * 3);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('what client/sw.ts imports (a module outside client/, a package of the site\'s own) counts as code: an edit to it is a new sw.js', async () => {
    const { content, out } = fresh();
    const project = path.dirname(content);
    ownTemplates(content);
    mkdirSync(path.join(project, 'shared'));
    mkdirSync(path.join(project, 'node_modules', 'sw-tag'), { recursive: true });
    writeFileSync(path.join(project, 'node_modules', 'sw-tag', 'package.json'), '{"name":"sw-tag","main":"index.js"}');
    const write = (local: string, pkg: string) => {
      writeFileSync(path.join(project, 'shared', 'tag.ts'), `export const LOCAL = '${local}';\n`);
      writeFileSync(path.join(project, 'node_modules', 'sw-tag', 'index.js'), `exports.PKG = '${pkg}';\n`);
    };
    write('local-1', 'pkg-1');
    const sw = path.join(project, 'client', 'sw.ts');
    writeFileSync(sw, `import { LOCAL } from '../shared/tag.ts';\nimport { PKG } from 'sw-tag';\n${readFileSync(sw, 'utf8')}\n(self as unknown as { tags: string[] }).tags = [LOCAL, PKG];\n`);
    const tags = () => readFileSync(path.join(out, 'sw.js'), 'utf8').match(/(local|pkg)-\d/g)?.sort();
    await ok(build(content, out));
    expect(tags()).toEqual(['local-1', 'pkg-1']);
    write('local-2', 'pkg-1');
    expect((await ok(build(content, out))).stdout).not.toMatch(NOTHING);
    expect(tags()).toEqual(['local-2', 'pkg-1']);
    write('local-2', 'pkg-2');
    expect((await ok(build(content, out))).stdout).not.toMatch(NOTHING);
    expect(tags()).toEqual(['local-2', 'pkg-2']);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a tsconfig.json beside the templates is read by the compile: an edit to its paths compiles again', async () => {
    const { content, out } = fresh();
    const project = path.dirname(content);
    ownTemplates(content);
    for (const v of ['one', 'two']) {
      mkdirSync(path.join(project, `shared-${v}`));
      writeFileSync(path.join(project, `shared-${v}`, 'v.ts'), `export const V = '${v}';\n`);
    }
    const tsconfig = (v: string) => writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { jsx: 'react-jsx', paths: { '@v/*': [`./shared-${v}/*`] } } }));
    tsconfig('one');
    const page = path.join(project, 'templates/pages/NotFound.tsx');
    writeFileSync(page, `import { V } from '@v/v.ts';\n${readFileSync(page, 'utf8').replace('<main id="main" tabIndex={-1}>', '<main id="main" tabIndex={-1} data-tsv={V}>')}`);
    for (const dir of ['templates', 'client', 'shared-one', 'shared-two']) age(path.join(project, dir));
    const shown = () => /data-tsv="(\w+)"/.exec(readFileSync(path.join(out, '404.html'), 'utf8'))?.[1];
    await ok(build(content, out));
    expect(shown()).toBe('one');
    tsconfig('two');
    expect((await ok(build(content, out))).stdout).toMatch(/rendered every page/);
    expect(shown()).toBe('two');
  });

  it("a post's file removed, then added again, its folder's times set back each time: seen (a folder is listed again when its stamp changed)", async () => {
    const { content, out } = fresh();
    // A minute later for the stamps: no folder is in its racy window, each is recorded by its stamp.
    await ok(later(() => build(content, out)));
    expect(Object.keys((JSON.parse(readFileSync(recordFile(out), 'utf8')) as { dirs: Record<string, string> }).dirs)).toContain(path.dirname(POST));
    const folder = path.join(content, path.dirname(POST));
    const { atime, mtime } = statSync(folder);
    const es = path.join(folder, 'es.md');
    const text = readFileSync(es);
    rmSync(es);
    utimesSync(folder, atime, mtime);
    expect((await ok(later(() => build(content, out)))).stdout).not.toMatch(NOTHING);
    expect(listFiles(out)).not.toContain('es/blog/madrid-luxury-dining.html');
    expect(await differencesFromCold(content, out)).toEqual([]);
    writeFileSync(es, text);
    utimesSync(folder, atime, mtime);
    expect((await ok(later(() => build(content, out)))).stdout).not.toMatch(NOTHING);
    expect(listFiles(out)).toContain('es/blog/madrid-luxury-dining.html');
    expect(await differencesFromCold(content, out)).toEqual([]);
    expect((await ok(later(() => build(content, out)))).stdout).toMatch(NOTHING);
  });

  it("what editors and file managers leave in the content (.DS_Store, vim's swap file, backups, Thumbs.db, an editor's dot-folder) is not read: the build is the same as without them, and their coming and going is no change", async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    const left = ['blog/madrid-luxury-dining/.en.md.swp', 'blog/madrid-luxury-dining/en.md~', 'blog/madrid-luxury-dining/#en.md#', 'blog/.DS_Store', 'images/.DS_Store', 'images/Thumbs.db', 'i18n/.en.yaml.swp', 'data/prices.yaml~', '.obsidian/app.json'];
    for (const f of left) {
      mkdirSync(path.dirname(path.join(content, f)), { recursive: true });
      writeFileSync(path.join(content, f), 'b0VIM 9.0');
    }
    expect((await ok(build(content, out))).stdout).toMatch(NOTHING);
    // A cold build with them (in memory, differencesFromCold) gives the same files.
    expect(await differencesFromCold(content, out)).toEqual([]);
    for (const f of left) rmSync(path.join(content, f));
    expect((await ok(build(content, out))).stdout).toMatch(NOTHING);
  });

  // ---- symlinks -------------------------------------------------------------------------------

  it('a post folder turned into a symlink to a folder inside the content, then the target edited', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    mkdirSync(path.join(content, 'archive'));
    renameSync(path.join(content, 'blog/madrid-luxury-dining'), path.join(content, 'archive/madrid-luxury-dining'));
    symlinkSync('../archive/madrid-luxury-dining', path.join(content, 'blog/madrid-luxury-dining'));
    await ok(build(content, out));
    edit(content, 'archive/madrid-luxury-dining/en.md', /^title: .*$/m, 'title: "Changed"');
    expect((await ok(build(content, out))).stdout).not.toMatch(NOTHING);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a post folder turned into a symlink to a dot-folder inside the content (.store/): an edit of the target is seen', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    mkdirSync(path.join(content, '.store'));
    renameSync(path.join(content, 'blog/madrid-luxury-dining'), path.join(content, '.store/madrid-luxury-dining'));
    symlinkSync('../.store/madrid-luxury-dining', path.join(content, 'blog/madrid-luxury-dining'));
    await ok(build(content, out));
    edit(content, '.store/madrid-luxury-dining/en.md', /^title: .*$/m, 'title: "Changed"');
    expect((await ok(build(content, out))).stdout).not.toMatch(NOTHING);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('an i18n file that is a symlink into a dot-folder of the content: an edit of the target is seen', async () => {
    const { content, out } = fresh();
    mkdirSync(path.join(content, '.i18n'));
    renameSync(path.join(content, 'i18n/es.yaml'), path.join(content, '.i18n/es.yaml'));
    symlinkSync('../.i18n/es.yaml', path.join(content, 'i18n/es.yaml'));
    await ok(build(content, out));
    edit(content, '.i18n/es.yaml', '  menu: Menú', '  menu: MENUX');
    expect((await ok(build(content, out))).stdout).not.toMatch(NOTHING);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('an i18n symlink switched to another version (ln -sfn, both targets unchanged) is seen', async () => {
    const { content, out } = fresh();
    mkdirSync(path.join(content, 'versions'));
    const es = readFileSync(path.join(content, 'i18n/es.yaml'), 'utf8');
    writeFileSync(path.join(content, 'versions/es-1.yaml'), es);
    writeFileSync(path.join(content, 'versions/es-2.yaml'), es.replace('  menu: Menú', '  menu: MENUX'));
    // Both versions of the same size and time, neither recent (so neither is hashed): only the link tells them apart.
    const old = new Date(Date.now() - 3_600_000);
    for (const v of ['es-1', 'es-2']) utimesSync(path.join(content, `versions/${v}.yaml`), old, old);
    expect(statSync(path.join(content, 'versions/es-1.yaml')).size).toBe(statSync(path.join(content, 'versions/es-2.yaml')).size);
    rmSync(path.join(content, 'i18n/es.yaml'));
    symlinkSync('../versions/es-1.yaml', path.join(content, 'i18n/es.yaml'));
    await ok(build(content, out));
    // An atomic switch: a new link renamed over the old one.
    symlinkSync('../versions/es-2.yaml', path.join(content, 'i18n/es.yaml.new'));
    renameSync(path.join(content, 'i18n/es.yaml.new'), path.join(content, 'i18n/es.yaml'));
    expect((await ok(build(content, out))).stdout).not.toMatch(NOTHING);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  // ---- the output folder ----------------------------------------------------------------------

  it('a page edited by hand in the live output is not kept: the output is not taken as unchanged, and the page is rendered again', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    const handEdit = () => writeFileSync(path.join(out, 'about.html'), `${readFileSync(path.join(out, 'about.html'), 'utf8')}<!-- edited by hand -->`);
    const edited = () => readFileSync(path.join(out, 'about.html'), 'utf8').includes('edited by hand');
    // Nothing else changed: the output is not taken as unchanged.
    handEdit();
    const again = await ok(build(content, out));
    expect(edited(), 'about.html kept its hand edit (taken as unchanged)').toBe(false);
    // …and the summary says why (not "files were saved unchanged").
    expect(again.stdout).toContain('(1 page(s) changed or removed in the output since the last build, written again)');
    // A post changed too: the hand-edited page is not carried into the new build.
    handEdit();
    edit(content, POST, /^title: .*$/m, 'title: "Changed"');
    await ok(build(content, out));
    expect(edited(), 'about.html carried with its hand edit').toBe(false);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a post dated anew, then given an updated date: the sitemap the build takes or makes shows them (its key counts the dates)', async () => {
    const { content, out } = fresh({ english: true });
    await ok(build(content, out));
    const sitemap = () => readFileSync(path.join(out, 'sitemap.xml'), 'utf8');
    edit(content, POST, /^date: .*$/m, 'date: 2025-10-02');
    await ok(build(content, out));
    expect(sitemap()).toContain('<lastmod>2025-10-02</lastmod>');
    edit(content, POST, /^date: .*$/m, 'date: 2025-10-02\nupdated: 2025-11-01');
    await ok(build(content, out));
    expect(sitemap()).toContain('<lastmod>2025-11-01</lastmod>');
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('files the build derives, edited or removed by hand in the live output (an image, the script, the sitemap): written again, as a cold build', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    // An incremental build takes them from the live build (their names carry a hash of their bytes; the sitemap its key).
    const files = listFiles(out);
    const image = files.find((f) => f.startsWith('assets/img/'))!;
    const script = files.find((f) => /^assets\/main\.[0-9a-f]+\.js$/.test(f))!;
    const byHand = () => {
      appendFileSync(path.join(out, image), 'edited by hand');
      rmSync(path.join(out, script));
      appendFileSync(path.join(out, 'sitemap.xml'), '<!-- edited by hand -->');
    };
    byHand();
    expect((await ok(build(content, out))).stdout).not.toMatch(NOTHING);
    expect(await differencesFromCold(content, out)).toEqual([]);
    // With a post edited too (the pages carried, one rendered).
    byHand();
    edit(content, POST, /$/, '\n\nEdited.\n');
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a build killed (SIGKILL) right after it started carrying files: the next build removes its folder, same output', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    utimesSync(path.join(content, 'site.yaml'), new Date(), new Date());
    const paused = await pausedAtCarry(content, out);
    const builds = path.join(path.dirname(out), '.dist.builds');
    process.kill(paused.pid, 'SIGKILL');
    await paused.done;
    edit(content, POST, /^title: .*$/m, 'title: "Changed"');
    const r = await ok(build(content, out));
    expect(r.stdout).not.toMatch(NOTHING);
    expect(readdirSync(builds).filter((n) => n !== 'live' && n !== 'site-output.json')).toHaveLength(1);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a post edited during a build (after loading, before carrying): the next build renders the edit', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    utimesSync(path.join(content, 'site.yaml'), new Date(), new Date());
    const paused = await pausedAtCarry(content, out);
    edit(content, POST, /^title: .*$/m, 'title: "Changed"');
    paused.go();
    await ok(paused.done);
    const r = await ok(build(content, out));
    expect(r.stdout).toMatch(/blog\/madrid-luxury-dining\/en\.md changed/);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('three builds of the same content into one output at once: a complete output, equal to a cold build', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    edit(content, POST, /^title: .*$/m, 'title: "Changed"');
    const results = await Promise.all([spawnBuild(content, out), spawnBuild(content, out), spawnBuild(content, out)]);
    expect(results.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('two builds of one output at once (a --drafts build started while the other carries): it waits, then publishes after it, and the next build undoes the drafts', async () => {
    const { content, out } = fresh({ all: true });
    await ok(build(content, out));
    utimesSync(path.join(content, 'site.yaml'), new Date(), new Date());
    // Build B holds the folder, about to carry the live build's pages…
    const b = await pausedAtCarry(content, out);
    // …when build A, a drafts preview into the same folder, starts: it waits for B (before, it
    // published while B carried, and B could fail on, or carry, pages A had replaced).
    const a = build(content, out, ['--drafts']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    b.go();
    await ok(b.done);
    const drafts = await ok(a);
    expect(drafts.stderr).toMatch(/another build of .* is running \(process \d+\): waiting for it to finish/);
    // A published last: its draft language is linked…
    expect(readFileSync(path.join(out, 'index.html'), 'utf8').includes('hrefLang="fr"'), 'the drafts build is live').toBe(true);
    // …and the next published build carries nothing of it: a cold build's output.
    await ok(build(content, out));
    expect(readFileSync(path.join(out, 'index.html'), 'utf8').includes('hrefLang="fr"'), 'index.html of the non-draft build links the draft language fr').toBe(false);
    expect(await differencesFromCold(content, out)).toEqual([]);
    expect((await ok(build(content, out))).stdout).toMatch(NOTHING);
  });

  // ---- damaged caches -------------------------------------------------------------------------

  it('a truncated, then a garbage last-build record: every page rendered, same output', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    truncateSync(recordFile(out), 200);
    expect((await ok(build(content, out))).stdout).toMatch(/rendered every page: no earlier build/);
    writeFileSync(recordFile(out), Buffer.from([0xff, 0x00, 0x13, 0x37, 0x7b]));
    expect((await ok(build(content, out))).stdout).toMatch(/rendered every page: no earlier build/);
    writeFileSync(recordFile(out), '[]');
    expect((await ok(build(content, out))).stdout).toMatch(/rendered every page/);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a last-build record of the wrong shape (a stamp that is not a string, readsPosts not a list) costs a full render, not a crash', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    const good = readFileSync(recordFile(out), 'utf8');
    edit(content, POST, /^title: .*$/m, 'title: "Changed"');
    const failures: string[] = [];
    for (const damage of [
      (r: Record<string, unknown>) => (r.codeStamps = { 'src/cli.ts': 7 }),
      (r: Record<string, unknown>) => (r.readsPosts = 5),
    ]) {
      const record = JSON.parse(good) as Record<string, unknown>;
      damage(record);
      writeFileSync(recordFile(out), JSON.stringify(record));
      const r = await build(content, out);
      if (r.code !== 0) failures.push(r.stderr.trim().split('\n')[0]!);
    }
    // A record it cannot use costs a full render, never a failed build.
    expect(failures).toEqual([]);
  });

  it('a truncated or garbage posts-*.v8 parse cache, or one of the wrong shape: same output', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    const file = postsFile(content);
    expect(existsSync(file)).toBe(true);
    truncateSync(file, 100);
    edit(content, POST, /^title: .*$/m, 'title: "Changed 1"');
    await ok(build(content, out));
    writeFileSync(file, serialize({ extras: {}, entries: [[POST, 5], [1, 2]] }));
    edit(content, POST, /^title: .*$/m, 'title: "Changed 2"');
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
    // Entries of the right source whose parsed value is not one (edited by hand): parsed again.
    const entries = postsEntries<{ source: string; value: unknown; post?: unknown }>(file);
    for (const [, e] of entries) if (e.post) (e.value = 'not front matter'), delete e.post;
    expect(entries.filter(([, e]) => e.value === 'not front matter').length).toBeGreaterThan(5); // rewritten whole after the wrong shape
    writePostsEntries(file, entries);
    edit(content, POST, /^title: .*$/m, 'title: "Changed 3"');
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
    // The YAML files' kept data (text tables, data files) damaged: parsed again.
    const kept = postsEntries<{ source: string; value: unknown }>(file);
    const parsed = kept.filter(([key]) => key.startsWith('parsed:'));
    expect(parsed.map(([key]) => key)).toEqual(expect.arrayContaining(['parsed:i18n/en.yaml', 'parsed:site.yaml']));
    parsed.forEach(([, e], i) => (e.value = i % 2 ? Buffer.from('not v8 data') : 'not bytes'));
    // So are the data files' kept valid values (a build crashed on them).
    const valid = kept.filter(([key]) => key.startsWith('valid:'));
    expect(valid.length).toBeGreaterThan(3);
    valid.forEach(([, e], i) => (e.value = i % 2 ? Buffer.from('not v8 data') : 'not bytes'));
    writePostsEntries(file, kept);
    edit(content, POST, /^title: .*$/m, 'title: "Changed 4"');
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it.each([
    { damage: 'lost `links`', spoil: (post: Record<string, unknown>) => delete post.links },
    // The links and images kept with a post (content/post-body.ts), which checkPostRefs checks without reading the post.
    { damage: 'lost `refs`', spoil: (post: Record<string, unknown>) => delete post.refs },
    { damage: '`refs` of the wrong shape', spoil: (post: Record<string, unknown>) => post.links && (post.refs = [{ image: false, href: 5 }]) },
    { damage: '`refs` where `links` is false', spoil: (post: Record<string, unknown>) => (post.links = false) },
  ])('posts-*.v8 entries whose body facts $damage: those posts are read, so a link they hold is still checked', async ({ spoil }) => {
    const { content, out } = fresh();
    const target = 'blog/monaco-grand-prix';
    appendFileSync(path.join(content, POST), '\nSee also [the Grand Prix](/blog/monaco-grand-prix).\n');
    await ok(build(content, out));
    // Every post unchanged since is taken from the cache unread, by its facts; here they lack `links`.
    const file = postsFile(content);
    const entries = postsEntries<{ post?: Record<string, unknown> }>(file);
    const kept = entries.find(([rel]) => rel === POST)?.[1].post;
    expect(kept).toMatchObject({ links: true });
    expect(kept?.refs).toContainEqual(expect.objectContaining({ image: false, href: '/blog/monaco-grand-prix' }));
    for (const [, e] of entries) if (e.post) spoil(e.post);
    writePostsEntries(file, entries);
    // The linked post goes: the post linking it must fail the build, as it fails a cold one.
    rmSync(path.join(content, target), { recursive: true });
    const r = await build(content, out);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(POST);
    expect(r.stderr).toContain('link "/blog/monaco-grand-prix" is not a page of the site');
  });

  it('a truncated or garbage code-*.v8 compiled-code cache: compiled again, same output', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    const file = codeFile(out);
    // Written in the background after the templates compile: wait for it.
    for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(file), `the build kept no compiled code at ${file}`).toBe(true);
    truncateSync(file, 1000);
    edit(content, POST, /^title: .*$/m, 'title: "Changed 1"');
    await ok(build(content, out));
    writeFileSync(file, Buffer.from('garbage'.repeat(100)));
    edit(content, POST, /^title: .*$/m, 'title: "Changed 2"');
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a code-*.v8 of the wrong shape (valid V8 data, no model) is compiled again, not a false schema error', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    const file = codeFile(out);
    for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(file), `the build kept no compiled code at ${file}`).toBe(true);
    writeFileSync(file, serialize({}));
    edit(content, POST, /^title: .*$/m, 'title: "Changed"');
    const r = await build(content, out);
    expect({ code: r.code, said: (r.stderr + r.stdout).split('\n').find((l) => l.includes('error')) }).toEqual({ code: 0, said: undefined });
  });
});
