/** The web app manifest (name, icons, colours), from site.yaml and the default language's texts. */
import type { Site } from '../content/model.ts';
import type { Assets } from '../render/context.ts';
import type { OutputFile } from '../assets/bundle.ts';

export function manifestFile(site: Site, assets: Assets): OutputFile {
  const texts = site.texts[site.defaultLanguage] ?? {};
  const manifest = {
    name: site.config.brand,
    short_name: site.config.brand,
    description: texts['page.home.description'] ?? '',
    lang: site.defaultLanguage,
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: site.config.colors.theme,
    background_color: site.config.colors.background,
    icons: [
      { src: assets.icon, sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
      { src: assets.touchIcon, sizes: '180x180', type: 'image/png' },
    ],
  };
  return { file: 'manifest.webmanifest', content: `${JSON.stringify(manifest, null, 2)}\n` };
}
