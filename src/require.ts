/**
 * CommonJS packages (React's server renderer, esbuild) are required, not imported: before Node's
 * ESM loader can import a CommonJS file it scans the source for its export names; that scan
 * cost every `site` command 40-50 ms of start-up (measured on the 2-core machine).
 */
import { createRequire } from 'node:module';

export const requireCjs = createRequire(import.meta.url);
