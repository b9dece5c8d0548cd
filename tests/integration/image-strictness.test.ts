/** Only files the image pipeline understands are published, each re-encoded without metadata (icons too). */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { copyContent, listFiles, runCli, tmpDir, bytes, read } from '../helpers/site.ts';
import { renderSite } from '../helpers/render.ts';

const SECRETS = ['Owner Name', 'EOS Private', '/home/alice', 'inkscape', 'sodipodi', 'metadata', 'Created with', 'rdf:'];

/** A touch icon as an editor exports it: EXIF with GPS and an owner, and XMP. */
async function touchIconWithMetadata(): Promise<Buffer> {
  return sharp({ create: { width: 180, height: 180, channels: 3, background: '#7a3e2b' } })
    .withExif({
      IFD0: { Make: 'Canon', Model: 'EOS Private', Copyright: 'Owner Name' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 25/1 1234/100', GPSLongitudeRef: 'W', GPSLongitude: '3/1 42/1 5/1' },
    })
    .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:creator="Owner Name"/></rdf:RDF></x:xmpmeta>')
    .png()
    .toBuffer();
}

/** An icon as Inkscape saves it: editor namespaces, metadata, a comment and the author's home path. */
const INKSCAPE_ICON = `<?xml version="1.0" encoding="UTF-8"?>
<!-- Created with Inkscape (http://www.inkscape.org/) by Owner Name -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
  xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
  xmlns:dc="http://purl.org/dc/elements/1.1/" width="64" height="64" viewBox="0 0 64 64"
  sodipodi:docname="icon.svg" inkscape:export-filename="/home/alice/Pictures/icon.png" inkscape:version="1.3">
  <metadata><rdf:RDF><dc:creator>Owner Name</dc:creator></rdf:RDF></metadata>
  <sodipodi:namedview inkscape:zoom="4" pagecolor="#ffffff"/>
  <rect width="64" height="64" rx="14" fill="#7a3e2b" data-source="/home/alice/Pictures/logo.png"/>
  <path d="M32 12 l9 20 -9 20 -9 -20 z" fill="#faf7f2"/>
</svg>
`;

/** An icon an attacker (or a careless editor export) could ship: every way an SVG runs code or loads something. */
const HOSTILE_ICON = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 64 64" onload="alert('onload')">
  <script>alert('script')</script>
  <script type="text/ecmascript"><![CDATA[alert('cdata')]]></script>
  <rect width="64" height="64" fill="#7a3e2b" onclick="alert('click')" onmouseover="alert('over')"/>
  <a xlink:href="javascript:alert('xlink')"><circle cx="32" cy="32" r="10" fill="#faf7f2"/></a>
  <a href="javascript:alert('href')"><circle cx="20" cy="20" r="4" fill="#faf7f2"/></a>
  <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://evil.example/"></iframe></div></foreignObject>
  <image href="https://tracker.example/pixel.png" width="1" height="1"/>
  <animate attributeName="fill" values="#000" begin="0s" onbegin="alert('begin')"/>
  <style>@import url(https://evil.example/a.css); .c { fill: #7a3e2b; background: url('https://tracker.example/b.png') }</style>
  <circle class="c" cx="8" cy="8" r="2" style="fill: url(https://tracker.example/c.svg#g)"/>
  <style>@\\69mport "https://evil.example/escaped.css"; .d { fill: #7a3e2b }</style>
  <circle cx="9" cy="9" r="1" style="fill: u\\72l(https://tracker.example/d.svg)"/>
</svg>
`;

describe('[R-SAFE-3][R-PRIV-4] image pipeline strictness', () => {
  it('[R-SAFE-8] the published SVG icon is sanitised: no script, event handler, javascript: or external link, foreign object', async () => {
    const content = copyContent();
    writeFileSync(path.join(content, 'images', 'icon.svg'), HOSTILE_ICON);
    const { out } = await renderSite(content);
    const svg = listFiles(out).filter((f) => /^assets\/img\/icon\.[0-9a-f]+\.svg$/.test(f));
    expect(svg).toHaveLength(1);
    const text = read(out, svg[0]!);
    expect(text).toContain('#7a3e2b'); // still the icon
    expect(text).not.toMatch(/<script|alert|\son[a-z]+=|javascript:|foreignObject|iframe|evil\.example|tracker\.example|@import|69mport|\\72l/i);
  });

  it('icons are re-encoded: the PNG without EXIF, GPS or XMP, the SVG without editor metadata, comments or paths', async () => {
    const content = copyContent();
    const png = await touchIconWithMetadata();
    expect(png.toString('latin1')).toContain('Owner Name'); // the fixture really carries it
    writeFileSync(path.join(content, 'images', 'touch-icon.png'), png);
    writeFileSync(path.join(content, 'images', 'icon.svg'), INKSCAPE_ICON);
    const { out } = await renderSite(content);
    const files = listFiles(out);
    const svg = files.filter((f) => /^assets\/img\/icon\.[0-9a-f]+\.svg$/.test(f));
    const touch = files.filter((f) => /^assets\/img\/touch-icon\.[0-9a-f]+\.png$/.test(f));
    expect(svg).toHaveLength(1);
    expect(touch).toHaveLength(1);
    const svgText = read(out, svg[0]!);
    expect(svgText).toMatch(/^<svg[^>]*viewBox="0 0 64 64"/); // still the icon
    expect(svgText).toContain('#7a3e2b');
    for (const secret of SECRETS) expect(svgText.includes(secret), `icon.svg contains "${secret}"`).toBe(false);
    expect(svgText).not.toContain('<!--');
    const pngBytes = bytes(out, touch[0]!);
    const m = await sharp(pngBytes).metadata();
    expect({ exif: m.exif, xmp: m.xmp, icc: m.icc, width: m.width }).toEqual({ exif: undefined, xmp: undefined, icc: undefined, width: 180 });
    for (const secret of ['Owner Name', 'EOS Private', 'GPS']) expect(pngBytes.toString('latin1').includes(secret), `touch-icon contains "${secret}"`).toBe(false);
  });

  it('any other file under the images folder (.HEIC, .jfif, .dng, .txt) is an error naming each file; nothing is published', async () => {
    const content = copyContent();
    const strays = ['IMG_0001.HEIC', 'gallery/portrait.jfif', 'raw/DSC_0042.dng', 'notes.txt'];
    for (const f of strays) {
      const p = path.join(content, 'images', f);
      (await import('node:fs')).mkdirSync(path.dirname(p), { recursive: true });
      writeFileSync(p, 'GPS 40.4168 N, 3.7038 W; Owner Name');
    }
    const out = path.join(tmpDir(), 'dist');
    const r = await runCli(['build', '--content', content, '--out', out]);
    expect(r.code).toBe(1);
    for (const f of strays) expect(r.stderr).toMatch(new RegExp(`images/${f.replace('.', '\\.')}.*not an image the build can convert`));
    expect(existsSync(out)).toBe(false);
  });
});
