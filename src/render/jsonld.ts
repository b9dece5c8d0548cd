/** Structured data (schema.org JSON-LD), built only from content that the page also shows. */
import type { Review, Site } from '../content/model.ts';
import type { Translate } from '../content/texts.ts';
import type { Route, RouteTable } from '../routes/table.ts';
import { absoluteUrl, localize } from '../routes/paths.ts';

/** JSON that is safe inside `<script>`: no `<`, `>`, `&` or line separators survive literally. */
export function jsonForScript(value: unknown): string {
  if (typeof value === 'object' && value !== null && Object.isFrozen(value)) {
    // Frozen objects shared by many pages (the client data of every post of a language) are
    // serialised once per build instead of once per page.
    const hit = serialised.get(value);
    if (hit !== undefined) return hit;
    const json = escapeJson(value);
    serialised.set(value, json);
    return json;
  }
  return escapeJson(value);
}

const serialised = new WeakMap<object, string>();

const UNSAFE_IN_SCRIPT = /[<>&\u2028\u2029]/g;

function escapeJson(value: unknown): string {
  // One pass over the JSON instead of one per character.
  return JSON.stringify(value).replace(UNSAFE_IN_SCRIPT, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Mean rating to one decimal and the count, from the reviews that may be marked up. */
export function aggregateRating(reviews: readonly Review[]): { ratingValue: number; reviewCount: number } | undefined {
  const real = reviews.filter((r) => !r.sample);
  if (real.length === 0) return undefined;
  const mean = real.reduce((sum, r) => sum + r.rating, 0) / real.length;
  return { ratingValue: Math.round(mean * 10) / 10, reviewCount: real.length };
}

interface Input {
  site: Site;
  route: Route;
  t: Translate;
  routes: RouteTable;
  title: string;
  description: string;
  canonical: string;
  imageUrl: (file: string) => string;
  /** The served size of a content image (read from the file by the image stage). */
  imageSize: (file: string) => { width: number; height: number };
}


/** Reviews are marked up only where they are shown: the home page's testimonials. */
function business(input: Input, withReviews: boolean): object {
  const { site, t, routes, route } = input;
  const b = site.business;
  const abs = (p: string) => absoluteUrl(site.config.baseUrl, p);
  const rating = aggregateRating(site.reviews);
  const real = site.reviews.filter((r) => !r.sample);
  return {
    '@context': 'https://schema.org',
    '@type': b.type,
    '@id': `${site.config.baseUrl}/#business`,
    name: site.config.brand,
    description: t('page.home.description'),
    url: abs(routes.pagePath('home', route.lang)),
    telephone: site.config.contact.phone.replace(/\s+/g, ''),
    image: input.imageUrl(site.gallery.images[0]?.file ?? ''),
    priceRange: b.priceRange,
    currenciesAccepted: b.currency,
    paymentAccepted: b.paymentAccepted.join(', '),
    areaServed: site.cities.map((c) => ({ '@type': 'City', name: t(`city.${c.id}.name`) })),
    ...(b.open247 && {
      openingHoursSpecification: {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
        opens: '00:00',
        closes: '23:59',
      },
    }),
    makesOffer: b.offers.map((id) => {
      const tier = site.rates.tiers.find((x) => x.id === id)!;
      return {
        '@type': 'Offer',
        name: t(`rates.tier.${id}.name`),
        url: abs(routes.pagePath(b.offersPage, route.lang)),
        priceSpecification: {
          '@type': 'PriceSpecification',
          price: tier.price,
          priceCurrency: b.currency,
          ...(tier.from && { minPrice: tier.price }),
        },
      };
    }),
    ...(withReviews && rating && {
      aggregateRating: { '@type': 'AggregateRating', ...rating, bestRating: 5, worstRating: 1 },
      review: real.map((r) => ({
        '@type': 'Review',
        author: { '@type': 'Person', name: r.author },
        reviewRating: { '@type': 'Rating', ratingValue: r.rating, bestRating: 5 },
        reviewBody: r.body,
        datePublished: r.date,
      })),
    }),
  };
}

function gallery(input: Input): object {
  const { site, t } = input;
  return {
    '@context': 'https://schema.org',
    '@type': 'ImageGallery',
    name: t('gallery.title'),
    url: `${input.canonical}#gallery`,
    image: site.gallery.images.map((img) => ({
      '@type': 'ImageObject',
      contentUrl: input.imageUrl(img.file),
      name: t(`gallery.image.${img.id}.title`),
      description: t(`gallery.image.${img.id}.description`),
      ...sizeOf(input, img.file),
    })),
  };
}

function sizeOf(input: Input, file: string): { width: number; height: number } {
  const { width, height } = input.imageSize(file);
  return { width, height };
}

function breadcrumbs(input: Input): object | undefined {
  const { site, route, t, routes } = input;
  if (route.page?.id === 'home') return undefined;
  const abs = (p: string) => absoluteUrl(site.config.baseUrl, p);
  const items: { name: string; item: string }[] = [{ name: t('page.home.title'), item: abs(routes.pagePath('home', route.lang)) }];
  const blog = localize(site.blog.path, route.lang, site.defaultLanguage);
  if (route.kind === 'post' || route.kind === 'category') items.push({ name: t('page.blog.title'), item: abs(blog) });
  const parent = route.page?.parent;
  if (parent) items.push({ name: t(`page.${parent}.title`), item: abs(routes.pagePath(parent, route.lang)) });
  items.push({ name: input.title, item: input.canonical });
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: items.map((it, i) => ({ '@type': 'ListItem', position: i + 1, ...it })),
  };
}

function blogPosting(input: Input): object {
  const post = input.route.post!;
  const { site } = input;
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: post.title,
    description: post.excerpt,
    datePublished: post.date,
    dateModified: post.updated ?? post.date,
    inLanguage: post.lang,
    author: { '@type': 'Person', name: post.author },
    publisher: { '@type': 'Organization', name: site.config.brand, url: `${site.config.baseUrl}/` },
    mainEntityOfPage: input.canonical,
    keywords: post.tags.join(', '),
    articleSection: input.t(`blog.category.${post.category}`),
  };
}

/** The JSON-LD objects of one indexable route. */
export function structuredData(input: Input): object[] {
  const { route } = input;
  if (!route.indexable) return [];
  const out: object[] = [];
  const pageId = route.page?.id;
  // Pages that present the business carry its description (business.yaml pages, every city page);
  // the home page also the gallery and reviews.
  if (pageId && (route.city || input.site.business.pages.includes(pageId))) out.push(business(input, pageId === 'home'));
  if (pageId === 'home') out.push(gallery(input));
  if (route.kind === 'post') out.push(blogPosting(input));
  const crumbs = breadcrumbs(input);
  if (crumbs) out.push(crumbs);
  return out;
}
