/**
 * Setup file of every tier: the temporary folders a test file made (tmpDir) are removed after it.
 * Per file, not per run: a worker runs many files, and a file's folders are of no use to the next.
 */
import { afterAll } from 'vitest';
import { removeTmpDirs } from '../helpers/site.ts';

afterAll(() => removeTmpDirs());
