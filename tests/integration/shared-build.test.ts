/** The run's shared build and the in-memory fixture builds the other tests rely on. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { shipped } from '../helpers/content.ts';
import { renderSite } from '../helpers/render.ts';
import { shippedOut } from '../helpers/shared.ts';
import { copyContent, has, htmlFiles, read, SHIPPED_CONTENT } from '../helpers/site.ts';
import { sharedBuildKey } from '../setup/shared-site.ts';

describe('[R-FAST-1] one shared build per run, fixtures in memory', () => {
  it('the shared build is this tree\'s build of the shipped content, every language in it', () => {
    const out = shippedOut();
    expect(path.basename(path.dirname(out))).toBe(sharedBuildKey(SHIPPED_CONTENT));
    const c = shipped();
    for (const lang of c.languages) expect(has(out, c.file('/', lang)), lang).toBe(true);
    expect(read(out, 'index.html')).toContain(`lang="${c.defaultLanguage}"`);
  });

  it('a fixture build in memory renders the same pages as the shared CLI build and writes nothing to disk', async () => {
    const { out } = await renderSite(copyContent(SHIPPED_CONTENT), { host: 'netlify' });
    expect(htmlFiles(out).sort()).toEqual(htmlFiles(shippedOut()).sort());
    for (const f of ['index.html', shipped().file('/rates', shipped().others[0] ?? shipped().defaultLanguage)]) expect(read(out, f), f).toBe(read(shippedOut(), f));
    expect(existsSync(out.dir!)).toBe(false);
  });
});
