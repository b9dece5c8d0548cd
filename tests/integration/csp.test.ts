/**
 * One strict Content-Security-Policy for every page: no inline handler, one inline script (the
 * pre-paint boot, the same bytes on every page, at most 1 KB, allowed by its hash), the same policy
 * in every page's <meta> and the host's header. (Every page loaded in Chromium with the header
 * applied, without a violation: tests/e2e/sweep.test.ts.)
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { htmlFiles, read } from '../helpers/site.ts';
import { shippedOut } from '../helpers/shared.ts';
import { MAX_PAGES_PER_TEST, pageGroups } from '../helpers/groups.ts';
import { parseHtml } from '../helpers/dom.ts';
import { parseHeaders, headersFor } from '../../src/server/rules.ts';

// The run's shared build (made with --host netlify): the checks below are one test per small group of pages.
const out = shippedOut();
const groups = pageGroups(out);

describe('[R-BUILD-10] content security policy', () => {
  it('[R-SAFE-7] the sweeps cover every page in groups of at most MAX_PAGES_PER_TEST', () => {
    expect(groups.flatMap((g) => g.files).sort()).toEqual(htmlFiles(out).filter((f) => !f.startsWith('s/')).sort());
    for (const g of groups) expect(g.files.length, g.name).toBeLessThanOrEqual(MAX_PAGES_PER_TEST);
  });

  // decisions.md (Hosting): exactly one inline executable script, the boot, the same on every page.
  const bootOf = (f: string) => [...parseHtml(read(out, f)).querySelectorAll('script')].filter((s) => !s.hasAttribute('src') && !['application/ld+json', 'application/json'].includes(s.getAttribute('type') ?? ''));
  const boot = bootOf('index.html')[0]?.textContent ?? '';

  it('[R-VIS-8] the one inline script is the pre-paint boot: at most 1 KB, allowed by its sha256 in the header', () => {
    expect(boot.length).toBeGreaterThan(0);
    expect(Buffer.byteLength(boot)).toBeLessThanOrEqual(1024);
    const hash = createHash('sha256').update(boot).digest('base64');
    expect(headersFor(parseHeaders(read(out, '_headers')), '/rates')['Content-Security-Policy']).toContain(`script-src 'self' 'sha256-${hash}'`);
  });

  it.each(groups)('$name: one inline executable script (the boot, the same bytes everywhere), no inline event handler', ({ files }) => {
    for (const f of files) {
      const doc = parseHtml(read(out, f));
      // Forwarding pages (stubs, landing pages) load only the forwarding script.
      const forwarding = Boolean(doc.querySelector('meta[http-equiv="refresh"], noscript meta'));
      const inline = bootOf(f);
      expect(inline.length, `${f}: inline executable scripts`).toBe(forwarding ? 0 : 1);
      for (const s of inline) expect(s.textContent, `${f}: the boot differs from the home page's`).toBe(boot);
      for (const el of doc.querySelectorAll('*')) {
        for (const attr of el.getAttributeNames()) expect(attr.startsWith('on'), `${f}: ${el.tagName} ${attr}`).toBe(false);
        if (el.getAttribute('href')?.trim().toLowerCase().startsWith('javascript:')) throw new Error(`${f}: javascript: link`);
      }
      expect(doc.querySelectorAll('[style]'), `${f}: inline style attribute`).toHaveLength(0);
      // The one inline stylesheet is allowed by its hash, which the policy names.
      const styles = [...doc.querySelectorAll('style')];
      expect(styles.length, `${f}: inline style elements`).toBeLessThanOrEqual(1);
      for (const st of styles) {
        const hash = createHash('sha256').update(st.textContent ?? '').digest('base64');
        expect(doc.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content')).toContain(`'sha256-${hash}'`);
        expect(read(out, '_headers')).toContain(`'sha256-${hash}'`);
      }
    }
  });

  it('the policy in _headers is strict, with the security headers beside it', () => {
    const header = headersFor(parseHeaders(read(out, '_headers')), '/rates')['Content-Security-Policy']!;
    expect(header).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'(;| )/);
    expect(header).not.toContain('unsafe-inline');
    expect(header).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/]+=*'/);
    for (const d of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'"]) expect(header).toContain(d);
    const all = headersFor(parseHeaders(read(out, '_headers')), '/');
    for (const h of ['Strict-Transport-Security', 'X-Content-Type-Options', 'Referrer-Policy', 'Permissions-Policy', 'Rating']) expect(all[h], h).toBeTruthy();
    // Netlify joins the values of every rule matching a path: pages get no Cache-Control from
    // _headers (Netlify's own max-age=0, must-revalidate applies), so assets get exactly one.
    expect(all['Cache-Control']).toBeUndefined();
    expect(headersFor(parseHeaders(read(out, '_headers')), '/assets/site.x.css')['Cache-Control']).toBe('public, max-age=31536000, immutable');
    expect(headersFor(parseHeaders(read(out, '_headers')), '/sw.js')['Cache-Control']).toBe('no-cache');
  });

  it.each(groups)("$name: every page's <meta> policy is the header's (frame-ancestors is header-only)", ({ files }) => {
    const expected = headersFor(parseHeaders(read(out, '_headers')), '/rates')['Content-Security-Policy']!.replace("frame-ancestors 'none'; ", '');
    for (const f of files) {
      const meta = parseHtml(read(out, f)).querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content');
      expect(meta, f).toBe(expected);
    }
  });
});
