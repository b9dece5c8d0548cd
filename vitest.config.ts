import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './tests/setup/sequencer.ts';
import { useMemoryTmp } from './tests/setup/tmp-root.ts';

// Temporary folders on tmpfs where the machine has one (tests/setup/tmp-root.ts).
useMemoryTmp();

/**
 * Four tiers, each runnable alone (`npx vitest run --project unit`); `npm test` runs them all.
 * The integration, hosts and e2e tiers share one build of the shipped content per run
 * (tests/setup/shared-site.ts); e2e also shares one Chromium and the servers of that build.
 */
const sharedBuild = './tests/setup/shared-site.ts';
const tier = (name: string, globalSetup: string[] = []) => ({
  extends: true as const,
  test: { name, include: [`tests/${name}/**/*.test.ts`], globalSetup, setupFiles: ['./tests/setup/tmp-dirs.ts'] },
});

export default defineConfig({
  // Templates import the generator's public module by name (src/render/templates.ts API_MODULE).
  resolve: { alias: { '@site/api': fileURLToPath(new URL('./src/api.ts', import.meta.url)) } },
  test: {
    // Timeouts are a safety net for a stuck process, not a speed check: a busy machine may be 10x
    // slower. The 10 s budget per test is measured and reported (tests/setup/timing-reporter.ts).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two cores: two test files at a time, the longest first across the tiers (tests/setup/sequencer.ts).
    maxWorkers: 2,
    // Tests of a describe.concurrent (client, tablet-layout) three at a time, not five: on 2 cores
    // beside four busy processes (CI) five browser tests side by side took 10.4-10.8 s each, over
    // the 10 s budget. The suite's time does not depend on it (vitest 220.6 s against 222.5 s), though
    // client.test's file takes longer (33.6 s against 20-24 s in whole runs).
    maxConcurrency: 3,
    // Each worker process runs file after file with the modules it already loaded (the generator,
    // React, playwright): a fresh process and module graph per file cost 37.7 s of the workers'
    // time in an idle run. No test file mocks a module; the few that stub env or modules undo it.
    isolate: false,
    sequence: { sequencer: LongestFirstSequencer },
    // The default report, then the longest test, collection and hooks (the 10 s budget).
    reporters: ['default', './tests/setup/timing-reporter.ts'],
    // React (templates rendered in-process by fixture builds) in its production build, as the CLI runs it.
    // Every CLI a test starts builds in its own process: no resident build process is left behind
    // (tests/integration/resident.test.ts turns it on).
    env: { NODE_ENV: 'production', SITE_RESIDENT: 'off' },
    projects: [tier('unit'), tier('integration', [sharedBuild]), tier('hosts', [sharedBuild]), tier('e2e', [sharedBuild, './tests/setup/browser.ts'])],
  },
});
