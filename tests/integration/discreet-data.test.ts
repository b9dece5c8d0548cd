/**
 * Issue 23: the listing sites (their domains and source names, content/data/tracking.yaml and
 * directories.yaml) are data the pages need for attribution, but no page spells them out: the
 * embedded client data carries hashes and encoded labels (client/names.ts), and a landing page
 * names only its own source. Expected values come from the content the shared build was made of.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeLabel, nameHash } from '../../client/names.ts';
import { currentTouch } from '../../client/attribution.ts';
import { htmlFiles, read } from '../helpers/site.ts';
import { shippedOut } from '../helpers/shared.ts';
import { yaml } from '../helpers/content.ts';

type Tracking = { directorySources: string[]; directActionSources: string[]; referrers: Record<string, string> };
const tracking = yaml('data/tracking.yaml') as Tracking;
const directories = yaml('data/directories.yaml') as { slug: string; source: string }[];
/** Every word that names a listing site: its domains and source labels. */
const words = [...new Set([...Object.keys(tracking.referrers), ...Object.values(tracking.referrers), ...tracking.directorySources, ...tracking.directActionSources, ...directories.map((d) => d.source)])];

/** A page's client data with the shared file it names (templates/client-data.ts). */
const siteData = (out: string, html: string) => {
  const page = JSON.parse(/<script type="application\/json" id="site-data">(.*?)<\/script>/s.exec(html)![1]!) as { shared: string; cta: { directActionSources: string[] } };
  return { ...page, ...(JSON.parse(read(out, page.shared.replace(/^\//, ''))) as { tracking: Tracking }) };
};

describe('[R-SAFE-13] listing sites in the page data', () => {
  it('no page spells out a listing domain or source name in its data or markup (a landing page only its own source)', () => {
    const out = shippedOut();
    const pages = htmlFiles(out);
    expect(pages.length).toBeGreaterThan(10);
    let landings = 0;
    for (const file of pages) {
      const html = read(out, file);
      const own = /data-source="([^"]*)"/.exec(html)?.[1];
      if (own) landings++;
      // Slugs are URLs the operator chose (/s/<slug>); the words must not appear anywhere else.
      const text = html.replace(/data-source="[^"]*"/g, '').replace(/\/s\/[a-z0-9-]+/g, '');
      for (const w of words) expect(new RegExp(`(?<![\\p{L}\\d])${w.replace(/[.]/g, '\\.')}(?![\\p{L}\\d])`, 'iu').test(text), `${file} names "${w}"`).toBe(false);
    }
    expect(landings).toBe(directories.length);
    // The data every page shares, and the scripts, name none either.
    const shared = siteData(out, read(out, 'index.html')).shared;
    for (const file of [shared.replace(/^\//, ''), ...readdirSync(path.join(out, 'assets')).filter((f) => /\.(js|json)$/.test(f)).map((f) => `assets/${f}`), 'sw.js']) {
      const text = read(out, file);
      for (const w of words) expect(new RegExp(`(?<![\\p{L}\\d])${w.replace(/[.]/g, '\\.')}(?![\\p{L}\\d])`, 'iu').test(text), `${file} names "${w}"`).toBe(false);
    }
  });

  it('the hashed data still attributes: every referrer domain (and its subdomains) maps to its source; directory sources match by hash', () => {
    const html = read(shippedOut(), 'index.html');
    const data = siteData(shippedOut(), html);
    for (const [domain, source] of Object.entries(tracking.referrers)) {
      expect(currentTouch(new URL('https://site.example/'), `https://${domain}/x`, data.tracking.referrers)).toEqual({ source, medium: 'referral' });
      expect(currentTouch(new URL('https://site.example/'), `https://www.${domain}/x`, data.tracking.referrers)).toEqual({ source, medium: 'referral' });
    }
    expect(currentTouch(new URL('https://site.example/'), 'https://not-a-listing.example/', data.tracking.referrers)).toBeUndefined();
    expect(data.tracking.directorySources.sort()).toEqual(tracking.directorySources.map(nameHash).sort());
    expect(data.cta.directActionSources.sort()).toEqual(tracking.directActionSources.map(nameHash).sort());
    for (const label of Object.values(data.tracking.referrers)) expect(decodeLabel(label)).toBeTruthy();
  });

  it('hostile referrers and labels: prototype names, bad base64, non-ASCII hosts never throw or match', () => {
    const referrers = { [nameHash('example.com')]: 'not base64 %%%', [nameHash('ok.example')]: btoa('ok') };
    for (const ref of ['https://__proto__/', 'https://constructor/', 'https://example.com/', 'https://xn--80ak6aa92e.com/', 'https://a..b/', 'javascript:alert(1)'])
      expect(() => currentTouch(new URL('https://site.example/'), ref, referrers)).not.toThrow();
    expect(currentTouch(new URL('https://site.example/'), 'https://example.com/', referrers)).toBeUndefined();
    expect(currentTouch(new URL('https://site.example/'), 'https://ok.example/', referrers)).toEqual({ source: 'ok', medium: 'referral' });
  });
});
