/**
 * The order test files start in: longest first across all four tiers, by each file's duration in
 * the last run (vitest's results cache), so the two workers finish together instead of one running
 * a long file alone at the end. Vitest's own order takes the projects one after another (e2e, hosts,
 * integration, unit), longest first only within each. Files the cache does not know yet (a fresh
 * clone) start first, biggest first, as vitest does.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const key = (f: TestSpecification) => `${f.project.name}:${path.relative(config.root, f.moduleId)}`;
    const known = (f: TestSpecification) => cache.getFileTestResults(key(f))?.duration;
    const size = (f: TestSpecification) => cache.getFileStats(key(f))?.size ?? 0;
    return [...files].sort((a, b) => {
      const da = known(a);
      const db = known(b);
      if (da === undefined || db === undefined) return da === undefined && db === undefined ? size(b) - size(a) : da === undefined ? -1 : 1;
      return db - da;
    });
  }
}
