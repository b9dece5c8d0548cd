/** SITE_CONTENT: the tests of the shipped site read and build another content folder when it is set. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { copyContent, edit, ROOT } from '../helpers/site.ts';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('SITE_CONTENT', () => {
  it('[R-OPS-7] SHIPPED_CONTENT and the content helper follow SITE_CONTENT; fixtures stay the repository sample', async () => {
    const copy = copyContent();
    const first = /price: (\d+)/.exec(readFileSync(path.join(copy, 'data/rates.yaml'), 'utf8'))!;
    edit(copy, 'data/rates.yaml', first[0], `price: ${Number(first[1]) + 1}`);
    vi.stubEnv('SITE_CONTENT', copy);
    vi.resetModules();
    const site = await import('../helpers/site.ts');
    const { shipped } = await import('../helpers/content.ts');
    const { BASE } = await import('../helpers/urls.ts');
    expect(site.SHIPPED_CONTENT).toBe(copy);
    expect(site.FIXTURE_CONTENT).toBe(path.join(ROOT, 'content'));
    const c = shipped();
    expect(c.dir).toBe(copy);
    const { parse } = await import('yaml');
    const sample = parse(readFileSync(path.join(ROOT, 'content/data/rates.yaml'), 'utf8'));
    expect(c.rates.tiers[0].price).toBe(sample.tiers[0].price + 1);
    expect(BASE).toBe(c.site.baseUrl.replace(/\/+$/, ''));
  });

  it('[R-OPS-7] without SITE_CONTENT the shipped content is the repository content/', async () => {
    vi.stubEnv('SITE_CONTENT', '');
    vi.resetModules();
    const site = await import('../helpers/site.ts');
    expect(site.SHIPPED_CONTENT).toBe(path.join(ROOT, 'content'));
  });
});
