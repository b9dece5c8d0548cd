/**
 * Every page of the site (the shipped content, or SITE_CONTENT) rendered by the fast renderer and
 * by React's own: the same bytes, and not one page handed to React (it would be slow, not wrong).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fallbacks } from '../../src/render/markup.ts';
import { renderSite } from '../helpers/render.ts';
import { ownTemplates } from '../helpers/incremental.ts';
import { copyContent, SHIPPED_CONTENT } from '../helpers/site.ts';

describe('[R-BUILD-4] the site as React renders it', () => {
  it('every file the same with React’s renderer, and no page handed to it', async () => {
    const content = copyContent(SHIPPED_CONTENT);
    const before = fallbacks.count;
    const fast = await renderSite(content);
    expect(fallbacks.count - before, 'pages the templates made React render').toBe(0);
    process.env.SITE_TEST_RENDERER = 'react';
    let react: Awaited<ReturnType<typeof renderSite>>;
    try {
      react = await renderSite(content);
    } finally {
      delete process.env.SITE_TEST_RENDERER;
    }
    const files = [...fast.out.memory.keys()].sort();
    expect(files).toEqual([...react.out.memory.keys()].sort());
    expect(files.filter((f) => f.endsWith('.html')).length).toBeGreaterThan(10);
    const differing = files.filter((f) => Buffer.compare(Buffer.from(fast.out.memory.get(f)!), Buffer.from(react.out.memory.get(f)!)) !== 0);
    expect(differing).toEqual([]);
  });

  it('a page template with a hook: React writes its pages (the same bytes), handed over once, not once a page', async () => {
    const content = copyContent(SHIPPED_CONTENT);
    const file = path.join(ownTemplates(content), 'pages', 'City.tsx');
    const source = readFileSync(file, 'utf8');
    writeFileSync(file, `import { useState } from 'react';\n${source.replace('const { t, site, route } = ctx;', "const { t, site, route } = ctx;\n  const [hooked] = useState('hooked');\n  void hooked;")}`);
    const before = fallbacks.count;
    const fast = await renderSite(content);
    expect(fallbacks.count - before).toBe(1);
    process.env.SITE_TEST_RENDERER = 'react';
    try {
      const react = await renderSite(content);
      const pages = [...fast.out.memory.keys()].filter((f) => f.endsWith('.html'));
      for (const f of pages) expect(Buffer.from(fast.out.memory.get(f)!).equals(Buffer.from(react.out.memory.get(f)!)), f).toBe(true);
    } finally {
      delete process.env.SITE_TEST_RENDERER;
    }
  });
});
