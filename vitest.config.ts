import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Integration tests spawn the real CLI and browsers; two cores, so two files at a time.
    maxWorkers: 2,
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
