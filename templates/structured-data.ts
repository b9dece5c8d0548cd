/** Structured data (schema.org JSON-LD), built only from content that the page also shows. */
import { absoluteUrl, localizedPath } from '@site/api';
import type { PageContext, Review } from './model/index.ts';
import { cityOf } from './model/helpers.ts';

/** Mean rating to one decimal and the count, from the reviews that may be marked up. */
export function aggregateRating(reviews: readonly Review[]): { ratingValue: number; reviewCount: number } | undefined {
  const real = reviews.filter((r) => !r.sample);
  if (real.length === 0) return undefined;
  const mean = real.reduce((sum, r) => sum + r.rating, 0) / real.length;
  return { ratingValue: Math.round(mean * 10) / 10, reviewCount: real.length };
}

interface Input {
  site: PageContext['site'];
  route: PageContext['route'];
  t: PageContext['t'];
  routes: PageContext['routes'];
  /** The page's own title (without the brand). */
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
  const b = site.data.business;
  const abs = (p: string) => absoluteUrl(site.config.baseUrl, p);
  const rating = aggregateRating(site.data.reviews);
  const real = site.data.reviews.filter((r) => !r.sample);
  return {
    '@context': 'https://schema.org',
    '@type': b.type,
    '@id': `${site.config.baseUrl}/#business`,
    name: site.config.brand,
    description: t('page.home.description'),
    url: abs(routes.pagePath('home', route.lang)),
    telephone: site.config.contact.phone.replace(/\s+/g, ''),
    image: input.imageUrl(site.data.gallery.images[0]?.file ?? ''),
    priceRange: b.priceRange,
    currenciesAccepted: site.config.currency,
    paymentAccepted: b.paymentAccepted.join(', '),
    areaServed: site.data.cities.map((c) => ({ '@type': 'City', name: t(`city.${c.id}.name`) })),
    ...(b.open247 && {
      openingHoursSpecification: {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
        opens: '00:00',
        closes: '23:59',
      },
    }),
    makesOffer: b.offers.map((id) => {
      const tier = site.data.rates.tiers.find((x) => x.id === id)!;
      return {
        '@type': 'Offer',
        name: t(`rates.tier.${id}.name`),
        url: abs(routes.pagePath(b.offersPage, route.lang)),
        priceSpecification: {
          '@type': 'PriceSpecification',
          price: tier.price,
          priceCurrency: site.config.currency,
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
    image: site.data.gallery.images.map((img) => ({
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
  const blog = localizedPath(site.blog.path, route.lang, site.defaultLanguage);
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
export function structuredData(ctx: PageContext): object[] {
  const { route, head } = ctx;
  if (!head.canonical) return [];
  const input: Input = { site: ctx.site, route, t: ctx.t, routes: ctx.routes, title: head.pageTitle, description: head.description, canonical: head.canonical, imageUrl: ctx.imageUrl, imageSize: ctx.assets.image };
  if (!route.indexable) return [];
  const out: object[] = [];
  const pageId = route.page?.id;
  // Pages that present the business carry its description (business.yaml pages, every city page);
  // the home page also the gallery and reviews.
  if (pageId && (cityOf(route) || input.site.data.business.pages.includes(pageId))) out.push(business(input, pageId === 'home'));
  if (pageId === 'home') out.push(gallery(input));
  if (route.kind === 'post') out.push(blogPosting(input));
  const crumbs = breadcrumbs(input);
  if (crumbs) out.push(crumbs);
  return out;
}
