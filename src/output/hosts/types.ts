/** What a host writer gets and gives back. */
import type { OutputFile } from '../../assets/bundle.ts';
import type { HostRules } from './rules.ts';

export { HOSTS, type HostName } from './names.ts';

/** A host's files: `web` go into the web root beside the pages; `beside` into `<out>.host/`, never served. */
export interface HostFiles {
  web: OutputFile[];
  beside: OutputFile[];
}

/** One host target: turns the host-neutral rules into that host's files. */
export type HostWriter = (rules: HostRules, ctx: { outDir: string }) => HostFiles;
