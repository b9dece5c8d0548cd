/** Stage "assets": the client script, the forwarding script and the stylesheet, bundled and hashed. */
import type { BuildOptions } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { BuildError } from '../diagnostics.ts';
import { contentHash, hashedName } from '../hash.ts';
import { dropStale, writeFileAtomic } from '../files.ts';
import { esbuild, metafileInputs, requireCjs } from '../require.ts';

/** One output file of the build: its path under the output root and its bytes. */
export interface OutputFile {
  file: string;
  content: string | Uint8Array;
}

export interface BundledAssets {
  files: OutputFile[];
  /** Public URLs: `/assets/main.<hash>.js` etc. */
  js: string;
  forward: string;
  /** The whole stylesheet (`styles/site.css`), inlined in the pages that take it whole, and its base64 SHA-256 for the CSP. */
  cssText: string;
  styleHash: string;
  /**
   * With `styles/first-screen.css` (which site.css imports first): that part alone, inlined in the
   * pages that link the whole stylesheet (`href`, a hashed file) after their first screen, so the
   * document stays within the first round trip (R-VIS-8).
   */
  firstScreen?: FirstScreenStyles;
  /** The hash of every inline stylesheet, in this order: the one policy names them all. */
  styleHashes: string[];
  /** Every file esbuild read for these bundles (absolute paths; see CompiledTemplates.inputs). */
  inputs?: string[];
  noscriptCss: string;
  /** The pre-paint boot (`client/boot.ts`, when there is one): inlined in every page's head, allowed by its hash. */
  boot?: { text: string; hash: string };
  /** Gzipped size of the main script, for the build summary and its budget. */
  jsBytes: number;
}

export interface FirstScreenStyles {
  cssText: string;
  styleHash: string;
  /** Public URL of the whole stylesheet: `/assets/site.<hash>.css`. */
  href: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

/** From its package file: the version without loading esbuild itself. */
const esbuildVersion = () => (requireCjs('esbuild/package.json') as { version: string }).version;

const BASE_OPTIONS: BuildOptions = { bundle: true, write: false, minify: true, legalComments: 'none', logLevel: 'silent' };

/** One bundle's text; `inputs` gets every file esbuild read for it. */
async function bundleOne(entry: string, options: BuildOptions, label: string, inputs?: Set<string>): Promise<string> {
  try {
    const result = await esbuild().build({
      entryPoints: [entry],
      ...BASE_OPTIONS,
      ...options,
      metafile: true,
    });
    for (const f of metafileInputs(result.metafile)) inputs?.add(f);
    return result.outputFiles![0]!.text;
  } catch (err) {
    const errors = (err as { errors?: { text: string; location?: { file: string; line: number; column: number } }[] }).errors ?? [];
    throw new BuildError(label, errors.map((e) => ({ severity: 'error', code: label, message: e.text, file: e.location?.file, line: e.location?.line, column: e.location ? e.location.column + 1 : undefined })));
  }
}

/**
 * The service worker, `/sw.js` at the root, never hashed. Its cache version comes from the bytes of
 * everything it caches: the hashed names stand for their own bytes, `cachedBytes` are the files cached
 * under fixed names (the offline pages). Unrelated pages do not change it.
 */
export async function bundleServiceWorker(clientDir: string, precache: readonly string[], offline: Record<string, string>, cachedBytes: readonly (string | Uint8Array)[], cacheDir?: string): Promise<OutputFile> {
  const version = createHash('sha256').update(JSON.stringify([precache, offline]));
  for (const bytes of cachedBytes) version.update(contentHash(bytes));
  const cache = `site-${version.digest('hex').slice(0, 10)}`;
  // While sw.ts imports nothing, its text and these values are all the bundle is made of. A watch
  // session's rebuilds mostly ask for the same one again (an esbuild round trip saved).
  const entry = path.join(clientDir, 'sw.ts');
  const options: BuildOptions = {
    format: 'iife',
    target: ['es2020'],
    platform: 'browser',
    define: { __CACHE__: JSON.stringify(cache), __PRECACHE__: JSON.stringify(precache), __OFFLINE__: JSON.stringify(offline) },
  };
  // Everything the bytes come from: the source, the values, the options and esbuild's version.
  const memoKey = JSON.stringify([entry, readFileSync(entry, 'utf8'), BASE_OPTIONS, options, esbuildVersion()]);
  if (lastWorker?.key === memoKey) return lastWorker.file;
  // One-shot builds keep it on disk: a rebuild after a post edit asks for the same worker again,
  // and bundling it (starting esbuild's process) cost it ~25 ms.
  const kept = cacheDir && path.join(cacheDir, `sw-${createHash('sha256').update(memoKey).digest('hex').slice(0, 16)}.js`);
  const keptCode = kept ? readKept(kept) : undefined;
  const inputs = new Set<string>();
  const code = keptCode ?? (await bundleOne(entry, options, 'client', inputs));
  // Kept and remembered by sw.ts's own text: only while it imports nothing (what it imports is
  // named in that text, so the same text imports nothing again).
  const alone = keptCode !== undefined || (inputs.size === 1 && inputs.has(path.resolve(entry)));
  if (kept && keptCode === undefined && alone) keep(kept, code);
  if (!alone) return { file: 'sw.js', content: code };
  lastWorker = { key: memoKey, file: { file: 'sw.js', content: code } };
  return lastWorker.file;
}
let lastWorker: { key: string; file: OutputFile } | undefined;

function readKept(file: string): string | undefined {
  try {
    const code = readFileSync(file, 'utf8');
    utimesSync(file, new Date(), new Date()); // in use: kept by dropStale
    return code;
  } catch {
    return undefined;
  }
}

function keep(file: string, code: string): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileAtomic(file, code);
    dropStale(path.dirname(file), 'sw-', 86_400_000);
  } catch {
    // bundled again next time
  }
}

/** decisions.md (Hosting): the one inline pre-paint script is at most 1 KB minified. */
export const BOOT_LIMIT = 1024;

/** Bundle `client/main.ts`, `client/forward.ts`, `client/boot.ts` if there is one, and the stylesheets in `templates/styles/` (site.css, noscript.css, first-screen.css if there is one). */
export async function bundleAssets(clientDir: string, templatesDir: string, define: Record<string, string> = {}): Promise<BundledAssets> {
  const script: BuildOptions = { format: 'iife', target: ['es2020', 'chrome90', 'safari15', 'firefox90'], platform: 'browser', define };
  const style: BuildOptions = { loader: { '.css': 'css' }, target: ['chrome90', 'safari14', 'firefox90'] };
  const firstScreenEntry = path.join(templatesDir, 'styles', 'first-screen.css');
  const bootEntry = path.join(clientDir, 'boot.ts');
  const swEntry = path.join(clientDir, 'sw.ts');
  const inputs = new Set<string>();
  const [js, forward, css, noscriptCss, firstScreenCss, bootJs] = await Promise.all([
    bundleOne(path.join(clientDir, 'main.ts'), script, 'client', inputs),
    bundleOne(path.join(clientDir, 'forward.ts'), script, 'client', inputs),
    bundleOne(path.join(templatesDir, 'styles', 'site.css'), style, 'styles', inputs),
    bundleOne(path.join(templatesDir, 'styles', 'noscript.css'), style, 'styles', inputs),
    existsSync(firstScreenEntry) ? bundleOne(firstScreenEntry, style, 'styles', inputs) : undefined,
    // No trailing newline: the text is inlined as it is hashed.
    // No "use strict" prologue (esbuild adds one for a strict tsconfig): 13 of the boot's 1,024 bytes.
    existsSync(bootEntry) ? bundleOne(bootEntry, { ...script, tsconfigRaw: { compilerOptions: { alwaysStrict: false } } }, 'client', inputs).then((text) => text.trim()) : undefined,
    // The service worker is bundled with the build's values later (bundleServiceWorker); what it
    // imports counts as the client's inputs from here (an edit to it changes the code's key).
    existsSync(swEntry) ? bundleOne(swEntry, { format: 'iife', platform: 'browser', minify: false }, 'client', inputs) : undefined,
  ]);
  if (bootJs !== undefined && Buffer.byteLength(bootJs) > BOOT_LIMIT)
    throw new BuildError('client', [{ severity: 'error', code: 'boot-size', file: 'client/boot.ts', message: `the pre-paint boot is ${Buffer.byteLength(bootJs)} bytes minified, over the ${BOOT_LIMIT} bytes it may be (decisions.md): it is inlined in every page` }]);
  const named = (name: string, text: string) => `assets/${hashedName(name, contentHash(text))}`;
  const files: OutputFile[] = [
    { file: named('main.js', js), content: js },
    { file: named('forward.js', forward), content: forward },
    { file: named('noscript.css', noscriptCss), content: noscriptCss },
  ];
  // The whole stylesheet as a file only when some page links it (after its inlined first screen).
  const sheet = firstScreenCss === undefined ? undefined : { file: named('site.css', css), content: css };
  if (sheet) files.push(sheet);
  const styleHash = sha256(css);
  const firstScreen = sheet && firstScreenCss !== undefined ? { cssText: firstScreenCss, styleHash: sha256(firstScreenCss), href: `/${sheet.file}` } : undefined;
  const { gzipSync } = await import('node:zlib');
  return {
    files,
    js: `/${files[0]!.file}`,
    forward: `/${files[1]!.file}`,
    cssText: css,
    styleHash,
    ...(firstScreen && { firstScreen }),
    styleHashes: firstScreen ? [styleHash, firstScreen.styleHash] : [styleHash],
    noscriptCss: `/${files[2]!.file}`,
    ...(bootJs !== undefined && { boot: { text: bootJs, hash: sha256(bootJs) } }),
    jsBytes: gzipSync(js).length,
    inputs: [...inputs],
  };
}
