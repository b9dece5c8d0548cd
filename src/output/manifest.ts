/** The web app manifest (name, icons, colours), from site.yaml and the default language's texts. */
import type { Site } from '../content/model.ts';
import type { Assets } from '../render/context.ts';
import type { OutputFile } from '../assets/bundle.ts';
import { basePathOf, withBase } from '../routes/paths.ts';
import { siteMessages } from '../content/texts.ts';

export function manifestFile(site: Site, assets: Assets): OutputFile {
  // Through the formatter like every page: the description may reference facts (`{price:hour}`).
  const messages = siteMessages(site, site.defaultLanguage);
  const manifest = {
    name: site.config.brand,
    short_name: site.config.brand,
    // The front page's description (its id is the site's: the page at /).
    description: messages.format(`page.${site.pages.find((p) => p.path === '/')?.id}.description`) ?? '',
    lang: site.defaultLanguage,
    start_url: withBase(basePathOf(site.config.baseUrl), '/'),
    scope: withBase(basePathOf(site.config.baseUrl), '/'),
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
