/** The typed, frozen model of a site, assembled from `content/`. */
import type { z } from 'zod';
import type * as S from './schema.ts';

export type SiteConfig = z.output<typeof S.siteSchema>;
export type PageDef = z.output<typeof S.pagesSchema>[number];
export type BlogConfig = z.output<typeof S.blogSchema>;
export type Redirect = z.output<typeof S.redirectsSchema>[number];
export type Directory = z.output<typeof S.directoriesSchema>[number];
export type Services = z.output<typeof S.servicesSchema>;
export type Rates = z.output<typeof S.ratesSchema>;
export type Booking = z.output<typeof S.bookingSchema>;
export type Venue = z.output<typeof S.venuesSchema>[number];
export type Gallery = z.output<typeof S.gallerySchema>;
export type GalleryImage = z.output<typeof S.galleryImage>;
export type Review = z.output<typeof S.reviewsSchema>[number];
export type Cta = z.output<typeof S.ctaSchema>;
export type City = z.output<typeof S.citiesSchema>[number];
export type Health = z.output<typeof S.healthSchema>;
export type Business = z.output<typeof S.businessSchema>;
export type Legal = z.output<typeof S.legalSchema>;
export type Tracking = z.output<typeof S.trackingSchema>;

/** One blog post in one language. */
export interface Post {
  slug: string;
  lang: string;
  title: string;
  excerpt: string;
  date: string;
  updated?: string;
  category: string;
  author: string;
  tags: string[];
  draft: boolean;
  /** The markdown body as written (rendered per page by the render stage: `ctx.postBody`). */
  body: string;
  /** Content-relative source path. */
  file: string;
}

/** Everything the routes and templates know about the site. */
export interface Site {
  config: SiteConfig;
  languages: readonly string[];
  defaultLanguage: string;
  /** Flattened text tables per language (only the enabled languages). */
  texts: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Per language, the keys still marked untranslated (content/untranslated.ts); their text shows meanwhile. */
  untranslated: Readonly<Record<string, readonly string[]>>;
  pages: readonly PageDef[];
  blog: BlogConfig;
  /** Published posts (drafts and scheduled posts only with --drafts), newest first. */
  posts: readonly Post[];
  redirects: readonly Redirect[];
  directories: readonly Directory[];
  services: Services;
  rates: Rates;
  booking: Booking;
  venues: readonly Venue[];
  gallery: Gallery;
  reviews: readonly Review[];
  cta: Cta;
  cities: readonly City[];
  health: Health;
  business: Business;
  legal: Legal;
  tracking: Tracking;
  /** The build's date, YYYY-MM-DD (SOURCE_DATE_EPOCH or the clock). */
  today: string;
  /** Line and column of a field in a content YAML file, for diagnostics found after loading. */
  locate(file: string, path: readonly PropertyKey[]): { line: number; column: number } | undefined;
}
