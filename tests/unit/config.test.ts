/** Output paths that would hold or lie among the sources are refused before a build starts. */
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config.ts';
import { projectRoot } from '../../src/project.ts';
import { copyContent, tmpDir } from '../helpers/site.ts';

describe('--base-url', () => {
  it('refuses a base URL with a query or a fragment (every canonical and sitemap line would break), accepts a path', () => {
    const content = copyContent();
    const cwd = tmpDir();
    for (const bad of ['https://example.com/?x=1', 'https://example.com/#top', 'https://example.com/site?ref=a', 'https://example.com?x'])
      expect(() => resolveConfig({ content, out: 'dist', baseUrl: bad }, cwd), bad).toThrow(/no \?query or #fragment/);
    expect(resolveConfig({ content, out: 'dist', baseUrl: 'https://me.github.io/site' }, cwd).baseUrl).toBe('https://me.github.io/site');
  });
});

describe('[R-SAFE-1] output paths refused by the configuration', () => {
  const content = copyContent();
  const cwd = tmpDir();
  const refused = (out: string) => () => resolveConfig({ content, out }, cwd);

  it('refuses /, the home folder and the project root (and folders holding them)', () => {
    expect(refused('/')).toThrow(/root folder/);
    expect(refused(os.homedir())).toThrow(/home folder/);
    expect(refused(projectRoot())).toThrow(/project root/);
    expect(refused(path.dirname(projectRoot()))).toThrow(/project root/);
    expect(refused(cwd)).toThrow(/working folder/);
  });

  it('refuses the content, templates and client folders and anything inside them', () => {
    expect(refused(content)).toThrow(/content folder/);
    expect(refused(path.join(content, 'images'))).toThrow(/inside the content folder/);
    expect(refused(path.join(projectRoot(), 'templates'))).toThrow(/templates folder/);
    expect(refused(path.join(projectRoot(), 'client', 'out'))).toThrow(/inside the client folder/);
  });

  it('accepts an output folder of its own, inside the project or elsewhere', () => {
    expect(resolveConfig({ content, out: path.join(projectRoot(), 'dist') }, cwd).outDir).toBe(path.join(projectRoot(), 'dist'));
    expect(resolveConfig({ content, out: 'dist' }, cwd).outDir).toBe(path.join(cwd, 'dist'));
  });
});
