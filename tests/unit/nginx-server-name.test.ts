/**
 * [R-HOST-2] The generated nginx server block is named after the site's address (baseUrl's host):
 * beside Debian's default site a block named `_` never answers (tests/hosts/nginx.test.ts runs
 * the real nginx with it).
 */
import { describe, expect, it } from 'vitest';
import { nginx } from '../../src/output/hosts/nginx.ts';
import type { HostRules } from '../../src/output/hosts/rules.ts';

const rules: HostRules = {
  basePath: '',
  redirects: [],
  pages: ['/'],
  notFound: [{ prefix: '/', page: '/404.html', lang: 'en' }],
  common: [],
  assetsPrefix: '/assets/',
  serviceWorker: '/sw.js',
  cache: { immutable: 'public, max-age=31536000, immutable', revalidate: 'no-cache' },
};
const serverName = (siteUrl: string) => {
  const conf = String(nginx(rules, { outDir: '/srv/site/dist', siteUrl }).beside.find((f) => f.file === 'nginx.conf')!.content);
  return /^\s*server_name (.*);$/m.exec(conf)![1];
};

describe('[R-HOST-2] nginx server_name', () => {
  it.each([
    ['https://example.com', 'example.com'],
    ['https://Example.COM:8443/', 'example.com'],
    ['https://example.com.', 'example.com'],
    ['https://a_b.example.com', 'a_b.example.com'],
    ['https://www.example.com', 'www.example.com'],
    ['https://bücher.example', 'xn--bcher-kva.example'],
    ['http://[::1]:8080/', '[::1]'],
    ['http://127.0.0.1:8080', '127.0.0.1'],
  ])('%s → %s', (siteUrl, name) => {
    expect(serverName(siteUrl)).toBe(name);
  });
});
