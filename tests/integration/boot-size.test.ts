/**
 * decisions.md (Hosting): the one inline pre-paint script is at most 1 KB minified. The build
 * refuses a boot that grew past it, naming the file, instead of shipping it in every page.
 */
import { cpSync, mkdtempSync, appendFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleAssets, BOOT_LIMIT } from '../../src/assets/bundle.ts';
import { BuildError } from '../../src/diagnostics.ts';

const root = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'site-boot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('[R-VIS-8] the pre-paint boot', () => {
  it('is bundled, minified, within the limit, with its hash', async () => {
    const bundled = await bundleAssets(path.join(root, 'client'), path.join(root, 'templates'));
    expect(bundled.boot).toBeDefined();
    expect(Buffer.byteLength(bundled.boot!.text)).toBeLessThanOrEqual(BOOT_LIMIT);
    expect(bundled.boot!.text).not.toMatch(/^"use strict"/);
  });

  it('a boot over 1 KB fails the build, naming client/boot.ts', async () => {
    const client = path.join(dir, 'client');
    cpSync(path.join(root, 'client'), client, { recursive: true });
    // Code that minifies to more than the limit (a string the minifier cannot drop).
    appendFileSync(path.join(client, 'boot.ts'), `\ndocument.title += ${JSON.stringify('x'.repeat(BOOT_LIMIT))};\n`);
    const err = await bundleAssets(client, path.join(root, 'templates')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BuildError);
    expect((err as BuildError).diagnostics[0]).toMatchObject({ code: 'boot-size', file: 'client/boot.ts' });
  });
});
