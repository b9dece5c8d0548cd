/** `site check`: everything `build` checks, with nothing written; the exit code says the result. */
import { build, type BuildResult } from '../build.ts';
import type { BuildConfig } from '../config.ts';
import type { Writer } from '../output/writer.ts';

/** A writer that only counts: the check renders every page (template errors included) and keeps nothing. */
class DiscardWriter implements Writer {
  files = 0;
  bytes = 0;
  async write(_file: string, content: string | Uint8Array): Promise<void> {
    this.files++;
    this.bytes += typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
  }
  async commit(): Promise<void> {}
  async abort(): Promise<void> {}
}

/** Run the whole build into a writer that keeps nothing; throws BuildError like `build`. */
export function check(config: BuildConfig): Promise<BuildResult> {
  return build(config, new DiscardWriter());
}
