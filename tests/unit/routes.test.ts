import { describe, expect, it } from 'vitest';
import { absoluteUrl, fileForPath, localize, pathForFile } from '../../src/routes/paths.ts';
import { safePath } from '../../src/server/static.ts';
import { jsonForScript } from '../../src/render/json-script.ts';
import { aggregateRating } from '../../templates/structured-data.ts';

describe('paths', () => {
  it('[R-ROUTE-2][R-ROUTE-13] default language at the root, others prefixed; files are {path}.html', () => {
    expect(localize('/', 'en', 'en')).toBe('/');
    expect(localize('/', 'es', 'en')).toBe('/es');
    expect(localize('/rates', 'es', 'en')).toBe('/es/rates');
    expect(fileForPath('/')).toBe('index.html');
    expect(fileForPath('/es')).toBe('es.html');
    expect(fileForPath('/es/rates')).toBe('es/rates.html');
    for (const p of ['/', '/es', '/es/blog/x']) expect(pathForFile(fileForPath(p))).toBe(p);
    expect(absoluteUrl('https://a.example', '/')).toBe('https://a.example/');
    expect(absoluteUrl('https://a.example', '/es')).toBe('https://a.example/es');
  });
});

describe('JSON-LD', () => {
  it('[R-SEO-9] cannot be closed by content and still parses to the same value', () => {
    const value = { a: '</script><!-- & \u2028 \u2029 >' };
    const out = jsonForScript(value);
    expect(out).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(out)).toEqual(value);
  });

  it('[R-SEO-7] aggregates only non-sample reviews, to one decimal', () => {
    const r = (rating: number, sample = false) => ({ id: 'x', author: 'a', rating, body: 'b', date: '2025-01-01', city: 'madrid', sample });
    expect(aggregateRating([r(5, true), r(4, true)])).toBeUndefined();
    expect(aggregateRating([r(5), r(4), r(4), r(1, true)])).toEqual({ ratingValue: 4.3, reviewCount: 3 });
  });
});

describe('static server paths', () => {
  it('[R-BUILD-8] refuses traversal, encoded dots, backslashes and null bytes', () => {
    for (const bad of ['/../etc/passwd', '/%2e%2e/secret', '/a/%2E%2E/%2e%2e/x', '/a\\..\\b', '/x%00.html', '/%5c..%5cx', '/%E0%A4%A']) expect(safePath(bad), bad).toBeUndefined();
    expect(safePath('/es/rates?x=1')).toBe('/es/rates');
    expect(safePath('/blog/caf%C3%A9')).toBe('/blog/café');
  });
});
