/**
 * [R-INC-2] What a bundle was made from (src/require.ts metafileInputs): files only. A `define`
 * shows in esbuild's metafile as an input (`<define:NAME>`); counted as a file, it made the service
 * worker look as if it imported something, and a watch session bundled it again on every rebuild.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { esbuild, metafileInputs } from '../../src/require.ts';
import { ROOT } from '../helpers/site.ts';

describe('[R-INC-2] a bundle\'s inputs', () => {
  it('are the files it read, not the values it was given', async () => {
    const entry = path.join(ROOT, 'client', 'sw.ts');
    const result = await esbuild().build({ entryPoints: [entry], bundle: true, write: false, metafile: true, logLevel: 'silent', format: 'iife', define: { __CACHE__: '"x"', __PRECACHE__: '[]', __OFFLINE__: '{}' } });
    expect(Object.keys(result.metafile.inputs).some((k) => k.startsWith('<define:'))).toBe(true); // the premise
    expect(metafileInputs(result.metafile)).toEqual([entry]);
  });
});
