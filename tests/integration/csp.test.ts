/**
 * One strict Content-Security-Policy for every page: no inline script or handler, the same policy
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

  it.each(groups)('$name: no page has an inline executable script or an inline event handler', ({ files }) => {
    for (const f of files) {
      const doc = parseHtml(read(out, f));
      for (const s of doc.querySelectorAll('script')) {
        const type = s.getAttribute('type');
        const data = type === 'application/ld+json' || type === 'application/json';
        expect(s.hasAttribute('src') || data, `${f}: inline script ${s.outerHTML.slice(0, 80)}`).toBe(true);
      }
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
    expect(header).toContain("script-src 'self'");
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
