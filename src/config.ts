/** Resolve command-line options into one frozen config shared by every command. */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { cacheDir, projectRoot } from './project.ts';
import { HOSTS, type HostName } from './output/hosts/names.ts';
import { checkOutputPath } from './output/publish.ts';
import { UsageError } from './commands/usage.ts';

export interface BuildConfig {
  contentDir: string;
  outDir: string;
  templatesDir: string;
  clientDir: string;
  projectRoot: string;
  cacheDir: string;
  baseUrl?: string;
  /** `--host`: the host target (wins over `deploy.host` in site.yaml). */
  host?: HostName;
  strict: boolean;
  drafts: boolean;
  quiet: boolean;
  /** The build's date, YYYY-MM-DD. */
  today: string;
}

/** Today from SOURCE_DATE_EPOCH (reproducible builds) or the clock, as YYYY-MM-DD (UTC). */
export function buildDate(env: NodeJS.ProcessEnv = process.env, now = Date.now()): string {
  const epoch = env.SOURCE_DATE_EPOCH;
  if (epoch !== undefined && epoch !== '') {
    if (!/^\d+$/.test(epoch)) throw new UsageError(`SOURCE_DATE_EPOCH must be whole seconds since 1970, got "${epoch}"`);
    return new Date(Number(epoch) * 1000).toISOString().slice(0, 10);
  }
  return new Date(now).toISOString().slice(0, 10);
}

export interface CliOptions {
  content?: string;
  out?: string;
  templates?: string;
  client?: string;
  baseUrl?: string;
  host?: string;
  strict?: boolean;
  drafts?: boolean;
  quiet?: boolean;
  /** Print the details behind each warning. */
  verbose?: boolean;
}

/**
 * A site's own templates/ or client/ folder: beside its content folder when it holds `entry` (a site
 * made with `site init`), else the project's (this site, and content copies anywhere).
 */
export function siteFolder(contentDir: string, name: 'templates' | 'client', entry: string): string {
  const beside = path.join(path.dirname(contentDir), name);
  return existsSync(path.join(beside, entry)) ? beside : path.join(projectRoot(), name);
}

/**
 * The content folder `--content` names (default `content`), absolute. A mistyped one is a usage
 * error that says so (exit 2), not one "missing file" error per content file: no such folder, a
 * file, or a folder without site.yaml (a post folder or `blog/` given by mistake).
 */
export function contentFolder(given: string | undefined, cwd = process.cwd()): string {
  const dir = path.resolve(cwd, given ?? 'content');
  const st = statSync(dir, { throwIfNoEntry: false });
  const fix = `Give the folder that holds site.yaml${given === undefined ? ', or run the command in the folder that holds content/' : ''}`;
  if (!st?.isDirectory()) throw new UsageError(`--content ${given ?? 'content'}: ${st ? 'is a file, not a folder' : 'no such folder'} (${dir}). ${fix}`);
  if (!existsSync(path.join(dir, 'site.yaml'))) throw new UsageError(`--content ${given ?? 'content'}: ${dir} holds no site.yaml, so it is not a content folder. ${fix}`);
  return dir;
}

export function resolveConfig(opts: CliOptions, cwd = process.cwd()): BuildConfig {
  const root = projectRoot();
  const contentDir = contentFolder(opts.content, cwd);
  const outDir = path.resolve(cwd, opts.out ?? 'dist');
  // No query or fragment: every canonical, hreflang and sitemap URL is the base plus a path.
  if (opts.baseUrl !== undefined && !/^https?:\/\/[^/\s?#]+(\/[^\s?#]*)?$/.test(opts.baseUrl))
    throw new UsageError(`--base-url must be an absolute http(s) URL such as https://example.com, with no ?query or #fragment, got "${opts.baseUrl}"`);
  if (opts.host !== undefined && !(HOSTS as readonly string[]).includes(opts.host))
    throw new UsageError(`--host must be one of ${HOSTS.join(', ')}, got "${opts.host}"`);
  const templatesDir = path.resolve(cwd, opts.templates ?? siteFolder(contentDir, 'templates', 'index.tsx'));
  const clientDir = path.resolve(cwd, opts.client ?? siteFolder(contentDir, 'client', 'main.ts'));
  // The output folder is replaced wholesale: never a folder that holds or lies among the sources.
  checkOutputPath(outDir, { projectRoot: root, contentDir, templatesDir, clientDir, cwd });
  return Object.freeze({
    contentDir,
    outDir,
    templatesDir,
    clientDir,
    projectRoot: root,
    cacheDir: cacheDir(),
    baseUrl: opts.baseUrl,
    host: opts.host as HostName | undefined,
    strict: Boolean(opts.strict),
    drafts: Boolean(opts.drafts),
    quiet: Boolean(opts.quiet),
    today: buildDate(),
  });
}
