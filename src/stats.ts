/**
 * What a build reports about itself. A leaf module (types only): the build, the build record
 * (output/carry.ts) and the CLI's summary share it without importing each other.
 */
import type { ImageStats } from './assets/images.ts';
import type { HostName } from './output/hosts/names.ts';

export interface BuildStats {
  /** kind → language → count. */
  pages: Record<string, Record<string, number>>;
  files: number;
  bytes: number;
  ms: number;
  scriptGzipBytes: number;
  /** Milliseconds per stage, in order. */
  stages: Record<string, number>;
  /** Image sources, files written for them, and how many came from the cache or were encoded. */
  images: ImageStats;
  languages: readonly string[];
  /** Files of the live build, when nothing changed since it (nothing rendered or written); 0 for a real build. */
  carried: number;
  /**
   * An incremental build: pages rendered, files taken from the live build unchanged, pages given a
   * changed layout piece without rendering (`spliced`, the pieces' names), and why it rendered what it did.
   */
  incremental?: { rendered: number; reused: number; spliced?: number; pieces?: string[]; why: string };
  /** Threads that rendered pages: 1, or 1 + the page workers of a large build (render/parallel.ts). */
  threads: number;
  /** The host target the output was written for (its files in the web root and beside it). */
  host?: HostName;
  /** Posts whose markdown the helper thread rendered (builds on one render thread with many posts). */
  markdownHelped: number;
  /** Posts whose HTML came from the kept markdown of earlier builds (content/markdown-cache.ts). */
  markdownKept?: number;
  /** Pages a write thread wrote (builds on one render thread with many pages: output/write-thread.ts). */
  writtenOnThread?: number;
}
