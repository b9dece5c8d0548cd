/**
 * Counts the builds a test run makes (`npm run bench:tests` reads the count): when
 * SITE_TEST_BUILD_LOG names a file, every build appends one line to it.
 */
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';

/**
 * Record one build: how it was made (`shared`, `cli`: a spawned CLI, `main`: the CLI's entry run in
 * the test's process, `memory`: build() into memory), of which content, how long it took.
 */
export function countBuild(kind: 'shared' | 'cli' | 'main' | 'memory', content: string, ms: number): void {
  const log = process.env.SITE_TEST_BUILD_LOG;
  if (!log) return;
  // The test file that asked for it (none in a global setup), so the report can sum builds by file.
  let testPath: string | undefined;
  try {
    testPath = expect.getState().testPath;
  } catch {
    testPath = undefined;
  }
  const file = testPath ? path.relative(process.cwd(), testPath) : undefined;
  appendFileSync(log, `${JSON.stringify({ kind, content, ms: Math.round(ms), file })}\n`);
}
