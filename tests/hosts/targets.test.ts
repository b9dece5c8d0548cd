/**
 * Host targets (`--host`, `deploy.host`): each gets exactly the files it reads, host-only files go
 * to `<out>.host/`, never into the web root; the S3 target's CloudFront Function run in a VM.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { copyContent, edit, listFiles, materialize, read, runCli, SHIPPED_CONTENT } from '../helpers/site.ts';
import { renderSite } from '../helpers/render.ts';
import { startDevServer } from '../../src/server/dev.ts';
import { hostRules } from '../helpers/hosts.ts';

/** The host files each target writes: [web root, beside in <out>.host/]. */
const EXPECTED: Record<string, [web: string[], beside: string[]]> = {
  static: [['.nojekyll'], ['rules.json']],
  cloudflare: [['_headers', '_redirects'], ['rules.json', 'wrangler.toml']],
  netlify: [['_headers', '_redirects'], ['netlify.toml', 'rules.json']],
  vercel: [['vercel.json'], ['rules.json']],
  nginx: [[], ['nginx.conf', 'rules.json']],
  s3: [[], ['cloudfront-function.js', 'content-types.json', 'response-headers-policy.json', 'rules.json']],
};
const HOST_FILES = new Set(Object.values(EXPECTED).flatMap(([web, beside]) => [...web, ...beside]));

/** A content copy without deploy.host (so the flag or the default decides). */
function contentWithoutHost(): string {
  const c = copyContent(SHIPPED_CONTENT);
  const yaml = readFileSync(path.join(c, 'site.yaml'), 'utf8');
  if (/^deploy:/m.test(yaml)) edit(c, 'site.yaml', /^deploy:\n(?:[ #].*\n)*/m, '');
  return c;
}

/** One build per host (in memory, written out with its host folder), shared by the tests below. */
const builds = new Map<string, Promise<string>>();
const buildFor = (host: string) => {
  if (!builds.has(host)) builds.set(host, renderSite(contentWithoutHost(), { host }).then((b) => materialize(b.out)));
  return builds.get(host)!;
};

describe('host targets', () => {
  for (const [host, [web, beside]] of Object.entries(EXPECTED)) {
    it(`[R-HOST-1] --host ${host} writes ${web.join(', ') || 'no file'} in the web root and ${beside.join(', ')} beside it`, async () => {
      const out = await buildFor(host);
      const hostFilesInRoot = listFiles(out).filter((f) => HOST_FILES.has(f) || f.startsWith('_'));
      expect(hostFilesInRoot.sort()).toEqual([...web].sort());
      expect(readdirSync(`${out}.host`).sort()).toEqual([...beside].sort());
      expect(listFiles(out)).toContain('favicon.ico');
    });
  }

  it('[R-HOST-1] deploy.host in site.yaml picks the target, --host wins over it, the default is static', async () => {
    const c = contentWithoutHost();
    const plain = await renderSite(c);
    expect(listFiles(plain.out)).toContain('.nojekyll');
    writeYaml(c, 'deploy:\n  host: cloudflare\n');
    const fromYaml = await renderSite(c);
    expect(read(fromYaml.out, '_redirects')).not.toContain('301!');
    const flag = await renderSite(c, { host: 'netlify' });
    expect(read(flag.out, '_redirects')).toContain('301!');
  });

  it('[R-HOST-1] an unknown host is refused with the list of targets', async () => {
    const r = await runCli(['build', '--content', SHIPPED_CONTENT, '--out', '/tmp/never-written', '--host', 'heroku']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('--host must be one of static, cloudflare, netlify, vercel, nginx, s3');
  });

  it('[R-HOST-3] robots.txt disallows nothing; favicon.ico is an ICO holding a PNG; site serve applies the rules of a static build', async () => {
    const out = await buildFor('static');
    // `site serve` emulates a host whatever the target: the static target has no _redirects, the
    // rules come from <out>.host/rules.json.
    const rules = hostRules(out);
    const server = await startDevServer({ root: out, port: 0 });
    try {
      const r = await fetch(`${server.url}${rules.redirects[0]!.from}?q=1`, { redirect: 'manual' });
      expect(r.status).toBe(301);
      expect(r.headers.get('location')).toBe(`${rules.redirects[0]!.to}?q=1`);
      expect(r.headers.get('content-security-policy')).toContain("script-src 'self'");
      const lang = rules.notFound[0]!;
      const nf = await fetch(`${server.url}${lang.prefix}nope`);
      expect(nf.status).toBe(404);
      expect(await nf.text()).toBe(read(out, lang.page.slice(1)));
    } finally {
      await server.close();
    }
    expect(read(out, 'robots.txt')).not.toMatch(/Disallow:\s*\/\S*/);
    const ico = readFileSync(path.join(out, 'favicon.ico'));
    expect([...ico.subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
    expect(ico.subarray(22, 26).toString('latin1')).toBe('\x89PNG');
  });

  it('[R-HOST-2] s3: the CloudFront Function answers 301s with the query, clean URLs, per-language 404s and Cache-Control; the headers policy carries every header', async () => {
    const out = await buildFor('s3');
    const ctx: { handler?: (e: unknown) => Record<string, unknown> } = {};
    vm.runInNewContext(`${readFileSync(path.join(`${out}.host`, 'cloudfront-function.js'), 'utf8')}\nthis.handler = handler;`, ctx);
    const rules = hostRules(out);
    const request = (uri: string, querystring: Record<string, { value: string }> = {}) => ({ uri, querystring, headers: {} as Record<string, { value: string }> });
    const run = (req: ReturnType<typeof request>) => ctx.handler!({ context: { eventType: 'viewer-request' }, request: req }) as Record<string, unknown>;
    const respond = (req: ReturnType<typeof request>) =>
      ctx.handler!({ context: { eventType: 'viewer-response' }, request: req, response: { statusCode: 200, headers: {} } }) as { statusCode: number; headers: Record<string, { value: string }> };
    for (const r of rules.redirects) {
      const res = run(request(r.from, { x: { value: '1' } })) as { statusCode: number; headers: { location: { value: string } } };
      expect(res.statusCode, r.from).toBe(301);
      expect(res.headers.location.value, r.from).toBe(`${r.to}?x=1`);
    }
    const page = run(request('/rates')) as { uri: string };
    expect(page.uri).toBe('/rates.html');
    for (const n of rules.notFound) {
      const req = request(`${n.prefix}no-such-page`);
      expect((run(req) as { uri: string }).uri).toBe(n.page);
      expect(respond(req).statusCode).toBe(404);
    }
    const asset = request('/assets/site.0123456789.css');
    run(asset);
    expect(respond(asset).headers['cache-control']!.value).toBe('public, max-age=31536000, immutable');
    const html = request('/rates');
    run(html);
    expect(respond(html).headers['cache-control']!.value).toBe('no-cache');

    // The response-headers policy carries every header of the build, with the build's values.
    const policy = JSON.parse(readFileSync(path.join(`${out}.host`, 'response-headers-policy.json'), 'utf8')) as {
      SecurityHeadersConfig: Record<string, Record<string, unknown>>;
      CustomHeadersConfig: { Quantity: number; Items: { Header: string; Value: string }[] };
    };
    const sec = policy.SecurityHeadersConfig;
    const custom = policy.CustomHeadersConfig;
    expect(custom.Quantity).toBe(custom.Items.length);
    for (const [name, value] of rules.common) {
      const inPolicy: Record<string, () => unknown> = {
        'content-security-policy': () => sec.ContentSecurityPolicy?.ContentSecurityPolicy,
        'strict-transport-security': () => `max-age=${sec.StrictTransportSecurity?.AccessControlMaxAgeSec}${sec.StrictTransportSecurity?.IncludeSubdomains ? '; includeSubDomains' : ''}`,
        'x-content-type-options': () => (sec.ContentTypeOptions ? 'nosniff' : undefined),
        'referrer-policy': () => sec.ReferrerPolicy?.ReferrerPolicy,
        'x-frame-options': () => sec.FrameOptions?.FrameOption,
      };
      const got = inPolicy[name.toLowerCase()]?.() ?? custom.Items.find((i) => i.Header === name)?.Value;
      expect(got, name).toBe(value);
    }
  });
});

function writeYaml(contentDir: string, text: string): void {
  const p = path.join(contentDir, 'site.yaml');
  writeFileSync(p, `${readFileSync(p, 'utf8')}${text}`);
}
