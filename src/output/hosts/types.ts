/** What a host writer gets and gives back. */
import type { OutputFile } from '../../assets/bundle.ts';
import type { HostRules } from './rules.ts';

export { HOSTS, type HostName } from './names.ts';

/** A host's files: `web` go into the web root beside the pages; `beside` into `<out>.host/`, never served. */
export interface HostFiles {
  web: OutputFile[];
  beside: OutputFile[];
}

/** What a host writer knows of the build besides its rules. */
export interface HostContext {
  /** The output folder (absolute). */
  outDir: string;
  /** The content folder (absolute); its parent is the site's folder, where a host's own build runs. Default: `<outDir>/../content`. */
  contentDir?: string;
  /** The site's address (`baseUrl`, or `--base-url`). */
  siteUrl?: string;
  /** `--base-url` as given on the command line: a host's own build must repeat it. */
  baseUrlFlag?: string;
}

/** One host target: turns the host-neutral rules into that host's files. */
export type HostWriter = (rules: HostRules, ctx: HostContext) => HostFiles;
