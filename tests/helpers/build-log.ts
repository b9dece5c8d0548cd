/**
 * Counts the builds a test run makes (`npm run bench:tests` reads the count): when
 * SITE_TEST_BUILD_LOG names a file, every build appends one line to it.
 */
import { appendFileSync } from 'node:fs';

/**
 * Record one build: how it was made (`shared`, `cli`: a spawned CLI, `main`: the CLI's entry run in
 * the test's process, `memory`: build() into memory), of which content, how long it took.
 */
export function countBuild(kind: 'shared' | 'cli' | 'main' | 'memory', content: string, ms: number): void {
  const log = process.env.SITE_TEST_BUILD_LOG;
  if (log) appendFileSync(log, `${JSON.stringify({ kind, content, ms: Math.round(ms) })}\n`);
}
