/**
 * Strict input: impossible dates, reference and render-time data errors in one run, BOM and CRLF,
 * binary files, control characters, YAML alias bombs and oversized files (issue 14, part 4).
 * Every case builds a changed copy of the content with the real CLI.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyContent, edit, EPOCH, htmlFiles, read, ROOT, runMain, tmpDir } from '../helpers/site.ts';
import { ownTemplates } from '../helpers/incremental.ts';
import { renderErrors, renderSite } from '../helpers/render.ts';
import { formatFailure } from '../../src/diagnostics.ts';

/** The first post folder and language file of a content copy (found, not named: any content works). */
function firstPost(content: string): string {
  const slug = readdirSync(path.join(content, 'blog')).sort()[0]!;
  const lang = readdirSync(path.join(content, 'blog', slug)).sort()[0]!;
  return `blog/${slug}/${lang}`;
}

/** 1-based line of the first line of `file` matching `re`. */
function lineOf(content: string, file: string, re: RegExp): number {
  const lines = readFileSync(path.join(content, file), 'utf8').split(/\r?\n/);
  const i = lines.findIndex((l) => re.test(l));
  if (i < 0) throw new Error(`${re} not in ${file}`);
  return i + 1;
}

/** Build `content` in memory; it must fail. `stderr` is the report the CLI prints for it (formatFailure). */
async function failingBuild(content: string): Promise<{ stderr: string; stdout: string }> {
  const err = await renderErrors(content);
  return { stderr: formatFailure(err.stage, err.diagnostics), stdout: '' };
}

const count = (text: string, needle: string) => text.split(needle).length - 1;
/** ESC, NUL, bell and the other C0/C1 controls except newline and tab. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

describe('[R-SAFE-4][R-BUILD-2] impossible dates', () => {
  it('[R-SAFE-4] 2025-02-30 and 2026-13-45 are errors with file:line in posts, health, reviews and timelines', async () => {
    const c = copyContent();
    const post = firstPost(c);
    edit(c, post, /^date: .*$/m, 'date: 2026-13-45');
    edit(c, 'data/health.yaml', /^lastUpdate: .*$/m, 'lastUpdate: 2025-02-30');
    edit(c, 'data/reviews.yaml', /date: \d{4}-\d\d-\d\d/, 'date: 2025-02-29');
    edit(c, 'data/cities.yaml', /due: \d{4}-\d\d-\d\d/, 'due: 2025-04-31');
    const { stderr } = await failingBuild(c);
    const dateError = 'a day that exists in the calendar';
    const where = [
      [post, lineOf(c, post, /^date:/), 'date', '2026-13-45'],
      ['data/health.yaml', lineOf(c, 'data/health.yaml', /^lastUpdate:/), 'lastUpdate', '2025-02-30'],
      ['data/reviews.yaml', lineOf(c, 'data/reviews.yaml', /2025-02-29/), 'date', '2025-02-29'],
      ['data/cities.yaml', lineOf(c, 'data/cities.yaml', /2025-04-31/), 'due', '2025-04-31'],
    ] as const;
    for (const [file, line, field, value] of where) {
      expect(stderr).toMatch(new RegExp(`${file.replace(/[./]/g, '\\$&')}:${line}:\\d+: error \\[schema\\] \\S*${field}: expected ${dateError}.*found the text "${value}"`));
    }
    // Never dropped silently as a "scheduled" post: the future-looking date is an error, not a warning.
    expect(stderr).not.toMatch(/scheduled/);
    expect(count(stderr, dateError)).toBe(4);
  });

  it('[R-SAFE-4] a real leap day is accepted and shown as that day', async () => {
    const c = copyContent();
    const post = firstPost(c);
    edit(c, post, /^date: .*$/m, 'date: 2024-02-29');
    const { out } = await renderSite(c);
    const [, slug] = post.split('/');
    const pages = htmlFiles(out).filter((f) => f.endsWith(`/${slug}.html`) || f === `${slug}.html`);
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.some((p) => /datetime="2024-02-29"/i.test(read(out, p)))).toBe(true);
  });
});

describe('[R-SAFE-4][R-BUILD-2] one run reports everything, once each', () => {
  it('[R-SAFE-4] schema, reference and locale errors come together, each once, with file and field', async () => {
    const c = copyContent();
    const post = firstPost(c);
    edit(c, 'data/health.yaml', /^lastUpdate: .*$/m, 'lastUpdate: 2025-02-30'); // schema
    edit(c, 'data/redirects.yaml', /to: \/[a-z0-9-]+/, 'to: /no-such-page'); // reference: redirect target
    edit(c, 'data/directories.yaml', /to: \/[a-z0-9-]+/, 'to: /no-such-landing'); // reference: directory target
    edit(c, post, /^category: .*$/m, 'category: no-such-category'); // reference: category
    const lang = readdirSync(path.join(c, 'i18n')).sort().find((f) => f.endsWith('.yaml'))!;
    edit(c, `i18n/${lang}`, /^( {2}locale: ).*$/m, '$1en_GB@@bad'); // render-time data: a locale Intl refuses
    const { stderr } = await failingBuild(c);
    expect(stderr).toMatch(/data\/health\.yaml:\d+:\d+: error \[schema\] lastUpdate:/);
    expect(stderr).toMatch(/data\/redirects\.yaml:\d+:\d+: error \[reference\] \[\d+\]\.to: target "\/no-such-page"/);
    expect(stderr).toMatch(/data\/directories\.yaml:\d+:\d+: error \[reference\] \[\d+\]\.to: target "\/no-such-landing"/);
    expect(stderr).toMatch(new RegExp(`${post.replace(/[./]/g, '\\$&')}:\\d+: error \\[reference\\] category: unknown category "no-such-category"`));
    const localeLine = lineOf(c, `i18n/${lang}`, /^ {2}locale: /);
    expect(stderr).toMatch(new RegExp(`i18n/${lang.replace('.', '\\.')}:${localeLine}:\\d+: error \\[locale\\] lang\\.locale: "en_GB@@bad" is not a locale tag`));
    for (const once of ['no-such-page', 'no-such-landing', 'no-such-category', 'en_GB@@bad', '[schema] lastUpdate:']) expect(count(stderr, once), once).toBe(1);
    expect(count(stderr, 'Incorrect locale information')).toBeLessThanOrEqual(1);
  });

  it('[R-SAFE-4] a bad locale alone fails at load, not once per page', async () => {
    const c = copyContent();
    const lang = readdirSync(path.join(c, 'i18n')).sort().find((f) => f.endsWith('.yaml'))!;
    edit(c, `i18n/${lang}`, /^( {2}locale: ).*$/m, '$1x-');
    const { stderr } = await failingBuild(c);
    expect(stderr).toMatch(/Build failed \(load\): 1 problem/);
    expect(stderr).toMatch(/error \[locale\] lang\.locale: "x-" is not a locale tag/);
  });
});

describe('[R-SAFE-4] text encodings and hostile bytes', () => {
  it('[R-SAFE-4] a BOM and CRLF line ends are accepted in YAML files and posts', async () => {
    const c = copyContent();
    const post = firstPost(c);
    const toCrlf = (file: string) => writeFileSync(path.join(c, file), readFileSync(path.join(c, file), 'utf8').replace(/\r?\n/g, '\r\n'));
    const withBom = (file: string) => writeFileSync(path.join(c, file), `\uFEFF${readFileSync(path.join(c, file), 'utf8')}`);
    for (const f of ['data/health.yaml', 'site.yaml', post]) toCrlf(f);
    for (const f of ['data/health.yaml', 'pages.yaml', post]) withBom(f);
    const title = /^title: "?(.*?)"?\r?$/m.exec(readFileSync(path.join(c, post), 'utf8'))![1]!;
    const { out, warnings } = await renderSite(c);
    expect(warnings).not.toMatch(/front matter/);
    const [, slug] = post.split('/');
    const pages = htmlFiles(out).filter((f) => f.endsWith(`/${slug}.html`));
    expect(pages.some((p) => read(out, p).includes(title.replace(/&/g, '&amp;').replace(/"/g, '&quot;').slice(0, 20)))).toBe(true);
  });

  it('[R-SAFE-4] a binary file named .yaml is "not a text file"; no control character reaches the terminal', async () => {
    const c = copyContent();
    const binary = Buffer.alloc(4096);
    for (let i = 0; i < binary.length; i++) binary[i] = i % 256; // NUL, ESC, bell, C1 controls, invalid UTF-8
    writeFileSync(path.join(c, 'data/health.yaml'), binary);
    const { stderr, stdout } = await failingBuild(c);
    expect(stderr).toMatch(/data\/health\.yaml: error \[not-text\] not a text file/);
    expect(stderr + stdout).not.toMatch(CONTROL);
    expect(stderr.length).toBeLessThan(2000);
  });

  it('[R-SAFE-4] control characters in a content file are an error at their line that never echoes them (a terminal would obey them)', async () => {
    const c = copyContent();
    edit(c, 'data/health.yaml', /^intervalMonths: .*$/m, 'intervalMonths: "\u001b[2J\u001b]0;pwned\u0007"');
    const { stderr } = await failingBuild(c);
    expect(stderr).toMatch(/data\/health\.yaml:\d+:\d+: error \[not-text\] a control character \(U\+001B\)/);
    expect(stderr).not.toMatch(CONTROL);
  });

  it('[R-SAFE-4] a 1 KB YAML alias chain in a text table fails fast with a message naming the file and line', async () => {
    const c = copyContent();
    const lang = readdirSync(path.join(c, 'i18n')).sort().find((f) => f.endsWith('.yaml'))!;
    const names = 'abcdefghi';
    let bomb = `lol_a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n`;
    for (let i = 1; i < names.length; i++) bomb += `lol_${names[i]}: &${names[i]} [${Array(9).fill(`*${names[i - 1]}`).join(',')}]\n`;
    const before = readFileSync(path.join(c, `i18n/${lang}`), 'utf8');
    writeFileSync(path.join(c, `i18n/${lang}`), before + bomb);
    const firstAlias = before.split('\n').length + 1;
    const { stderr } = await failingBuild(c);
    expect(stderr).toMatch(new RegExp(`i18n/${lang.replace('.', '\\.')}:${firstAlias}:\\d+: error \\[yaml-aliases\\] YAML aliases`));
  });

  it('[R-SAFE-4] an oversized content file is refused without parsing it', async () => {
    const c = copyContent();
    const post = firstPost(c);
    const text = readFileSync(path.join(c, post), 'utf8');
    writeFileSync(path.join(c, post), text + 'lorem ipsum dolor sit amet '.repeat(100_000));
    const { stderr } = await failingBuild(c);
    expect(stderr).toMatch(new RegExp(`${post.replace(/[./]/g, '\\$&')}: error \\[too-large\\] the file is 2\\.\\d MB; content files are limited to 2 MB`));
  });

  it('[R-SAFE-4] front-matter code frames mark the line the header names', async () => {
    const c = copyContent();
    const post = firstPost(c);
    edit(c, post, /^date: .*$/m, 'date: 2025-02-30');
    const line = lineOf(c, post, /^date:/);
    const { stderr } = await failingBuild(c);
    expect(stderr).toMatch(new RegExp(`${post.replace(/[./]/g, '\\$&')}:${line}:\\d+: error`));
    expect(stderr).toMatch(new RegExp(`^ +> +${line} \\| date: 2025-02-30$`, 'm'));
  });
});

describe('[R-SAFE-9] content is read only from inside the content folder', () => {
  /** A file outside the content folder that must never be read: its lines would show in a code frame. */
  function secretFile(): string {
    const file = path.join(tmpDir('site-outside-'), 'credentials.yaml');
    writeFileSync(file, 'SECRET_TOKEN: hunter2-outside\nuser: root\n');
    return file;
  }

  it('[R-SAFE-9] a text table and a post linked to files outside are errors naming the link; nothing of the target is printed or published', async () => {
    const c = copyContent();
    const secret = secretFile();
    const lang = readdirSync(path.join(c, 'i18n')).sort().find((f) => f.endsWith('.yaml'))!;
    rmSync(path.join(c, 'i18n', lang));
    symlinkSync(secret, path.join(c, 'i18n', lang));
    const post = firstPost(c);
    rmSync(path.join(c, post));
    symlinkSync(secret, path.join(c, post));
    const { stderr } = await failingBuild(c);
    expect(stderr).toContain(`i18n/${lang}: error [outside-content] is a link to a file outside the content folder`);
    expect(stderr).toContain(`${post}: error [outside-content]`);
    expect(stderr).not.toMatch(/SECRET_TOKEN|hunter2|user: root/);
  });

  it('[R-SAFE-9] a post folder linked to a folder outside the project is an error, not a published post', async () => {
    const c = copyContent();
    const post = firstPost(c);
    const [, slug] = post.split('/');
    const outside = path.join(tmpDir('site-outside-'), slug!);
    renameSync(path.join(c, 'blog', slug!), outside);
    symlinkSync(outside, path.join(c, 'blog', slug!));
    const { stderr } = await failingBuild(c);
    expect(stderr).toMatch(new RegExp(`blog/${slug}/\\w+\\.md: error \\[outside-content\\]`));
  });
});

describe('[R-SAFE-9] linked images follow the content rule', () => {
  /** The first folder and the first file directly under a content copy's images folder. */
  function imageEntries(c: string): { folder: string; file: string } {
    const entries = readdirSync(path.join(c, 'images'), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    return { folder: entries.find((e) => e.isDirectory())!.name, file: entries.find((e) => e.isFile())!.name };
  }

  it('[R-SAFE-9] an image folder and an image file linked to places inside the content folder build as the files themselves', async () => {
    const plain = copyContent();
    const c = copyContent();
    const images = path.join(c, 'images');
    const { folder, file } = imageEntries(c);
    renameSync(path.join(images, folder), path.join(c, `${folder}-linked`));
    symlinkSync(`../${folder}-linked`, path.join(images, folder));
    renameSync(path.join(images, file), path.join(c, `linked-${file}`));
    symlinkSync(`../linked-${file}`, path.join(images, file));
    // A link back to a folder above it is not followed again (no loop, no second copy).
    symlinkSync('../images', path.join(c, `${folder}-linked`, 'up'));
    const [want, got] = await Promise.all([renderSite(plain), renderSite(c)]);
    expect([...got.out.memory.keys()].sort()).toEqual([...want.out.memory.keys()].sort());
    for (const [f, bytes] of want.out.memory) expect(Buffer.compare(Buffer.from(got.out.memory.get(f)!), Buffer.from(bytes)), f).toBe(0);
  });

  it('[R-SAFE-9] an image or image folder linked to a place outside the content folder is an error naming the link', async () => {
    const c = copyContent();
    const images = path.join(c, 'images');
    const { folder, file } = imageEntries(c);
    const away = tmpDir('site-outside-');
    renameSync(path.join(images, folder), path.join(away, folder));
    symlinkSync(path.join(away, folder), path.join(images, folder));
    renameSync(path.join(images, file), path.join(away, file));
    symlinkSync(path.join(away, file), path.join(images, file));
    const { stderr } = await failingBuild(c);
    expect(stderr).toContain(`images/${folder}: error [outside-content] is a link to a file outside the content folder`);
    expect(stderr).toContain(`images/${file}: error [outside-content]`);
    expect(stderr).not.toContain('missing-image');
  });
  it('[R-SAFE-9] nothing behind a link out of the content folder is read, even by the check for changes (a named pipe there would block a read)', async () => {
    const c = copyContent();
    const away = path.join(tmpDir('site-outside-'), 'photos');
    mkdirSync(away);
    execFileSync('mkfifo', [path.join(away, 'blocks-a-read.svg')]);
    symlinkSync(away, path.join(c, 'images', 'photos'));
    // Its own process, with a time limit: a read of the pipe would never return.
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) =>
      execFile(process.execPath, [path.join(ROOT, 'bin', 'site.js'), 'build', '--content', c, '--out', path.join(path.dirname(c), 'dist')], { cwd: ROOT, env: { ...process.env, SOURCE_DATE_EPOCH: EPOCH }, timeout: 60_000 }, (err, _out, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr }),
      ),
    );
    expect(r.stderr).toContain('images/photos: error [outside-content]');
    expect(r.code).toBe(1);
  });

  it('[R-SAFE-9] an image named through a link back into a folder above it is missing, at the line that names it', async () => {
    const c = copyContent();
    const data = readdirSync(path.join(c, 'data')).sort().find((f) => /file: [\w-]+\/[\w.-]+/.test(readFileSync(path.join(c, 'data', f), 'utf8')))!;
    const [, folder, name] = /file: ([\w-]+)\/([\w.-]+)/.exec(readFileSync(path.join(c, 'data', data), 'utf8'))!;
    symlinkSync('..', path.join(c, 'images', folder!, 'up'));
    edit(c, `data/${data}`, `file: ${folder}/${name}`, `file: ${folder}/up/${folder}/${name}`);
    const { stderr } = await failingBuild(c);
    expect(stderr).toMatch(new RegExp(`^data/${data.replace('.', '\\.')}:${lineOf(c, `data/${data}`, /\/up\//)}:\\d+: error \\[missing-image\\] .*images/${folder}/up/${folder}/${name!.replace('.', '\\.')} does not exist`, 'm'));
    expect(stderr).not.toContain('[render]');
  });

  it('[R-SAFE-9] a link under the images folder to the content folder itself is one error naming the link, not one per content file', async () => {
    const c = copyContent();
    const { folder } = imageEntries(c);
    symlinkSync('../..', path.join(c, 'images', folder, 'everything'));
    const { stderr } = await failingBuild(c);
    expect(stderr).toContain(`images/${folder}/everything: error [image] is a link to a folder that holds the images folder`);
    expect(stderr).toMatch(/^Build failed \(route\): 1 problem/m);
  });

  it('[R-SAFE-4] a link to itself or into a loop is left out like a link to nothing, not a crash', async () => {
    const c = copyContent();
    symlinkSync('self.svg', path.join(c, 'images', 'self.svg'));
    symlinkSync('b.yaml', path.join(c, 'data', 'a.yaml'));
    symlinkSync('a.yaml', path.join(c, 'data', 'b.yaml'));
    const r = await runMain(['build', '--quiet', '--content', c, '--out', path.join(path.dirname(c), 'dist')]);
    expect(r.stderr).not.toContain('ELOOP');
    expect(r.code, r.stderr).toBe(0);
  });

  it('[R-SAFE-4] an image a template names that the images folder lacks is reported as itself, once, not as a render error', async () => {
    const c = copyContent();
    const templates = ownTemplates(c);
    edit(templates, 'pages/About.tsx', '<main id="main" tabIndex={-1}>', '<main id="main" tabIndex={-1} data-img={ctx.assets.image(\'nowhere/gone.jpg\').src}>');
    const err = await renderErrors(c);
    const report = formatFailure(err.stage, err.diagnostics);
    expect(report).toMatch(/^images\/nowhere\/gone\.jpg: error \[missing-image\] image named in content does not exist under content\/images \(and on \d+ more routes\)$/m);
    expect(report).not.toContain('[render]');
    expect(report).not.toContain('\\x0a');
  });
});

describe('[R-SAFE-4] a text file in the wrong encoding says which and how to fix it', () => {
  it('[R-SAFE-4] Latin-1 and UTF-16 files are named as such, with the byte offset and how to save as UTF-8', async () => {
    const c = copyContent();
    const health = readFileSync(path.join(c, 'data/health.yaml'), 'utf8');
    // Latin-1: "ó" and "é" as one byte each, in a comment at the end.
    const latin1 = Buffer.from(`${health}# Revisión médica\n`, 'latin1');
    writeFileSync(path.join(c, 'data/health.yaml'), latin1);
    const lang = readdirSync(path.join(c, 'i18n')).sort().find((f) => f.endsWith('.yaml'))!;
    const table = readFileSync(path.join(c, 'i18n', lang), 'utf8');
    writeFileSync(path.join(c, 'i18n', lang), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(table, 'utf16le')]));
    const { stderr } = await failingBuild(c);
    const offset = latin1.findIndex((b) => b >= 0x80); // "ó", the first byte that is not ASCII
    // At its line and column (the last line: the comment), where an editor's cursor goes.
    const line = health.split('\n').length;
    expect(stderr).toContain(`data/health.yaml:${line}:${'# Revisi'.length + 1}: error [not-text] not valid UTF-8 at byte offset ${offset} (byte 0x${latin1[offset]!.toString(16)}): it looks like Latin-1 or Windows-1252 text; content files are UTF-8: save it as UTF-8`);
    expect(stderr).toContain(`i18n/${lang}: error [not-text] looks like UTF-16 text (it starts with a UTF-16 byte-order mark): content files are UTF-8; save it as UTF-8`);
  });

  it('[R-SAFE-4] half a character, as a surrogate written in UTF-8 bytes or as a YAML escape, is an error at its line, not a crash or "URI malformed"', async () => {
    const c = copyContent();
    const post = readdirSync(path.join(c, 'blog')).sort()[0]!;
    const body = path.join(c, 'blog', post, 'en.md');
    const text = readFileSync(body, 'utf8');
    // U+D83D (the first half of 😀) as the three bytes a CESU-8 tool writes, on a line of its own at the end.
    writeFileSync(body, Buffer.concat([Buffer.from(`${text}\nA smile: `), Buffer.from([0xed, 0xa0, 0xbd]), Buffer.from(' here.\n')]));
    const offset = Buffer.byteLength(`${text}\nA smile: `);
    const line = `${text}\n`.split('\n').length;
    // The same half as a YAML escape, in a post's title.
    const other = readdirSync(path.join(c, 'blog')).sort()[1]!;
    edit(c, `blog/${other}/en.md`, /^title: .*$/m, 'title: "Smile \\uD83D"');
    const { stderr } = await failingBuild(c);
    expect(stderr).toContain(`blog/${post}/en.md:${line}:${'A smile: '.length + 1}: error [not-text] not valid UTF-8 at byte offset ${offset}: a UTF-16 surrogate written as UTF-8 (bytes 0xed 0xa0 0xbd)`);
    expect(stderr).toMatch(new RegExp(`blog/${other}/en\\.md:2:\\d+: error \\[not-text\\] title: half of a character \\(U\\+D83D, a UTF-16 surrogate without its other half, written as the escape "\\\\uD83D"\\)`));
    expect(stderr).not.toMatch(/URI malformed|byte offset -1/);
  });
});
