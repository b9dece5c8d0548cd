/**
 * The generator's one public module for templates/ and client/ (as Astro templates import
 * `astro:content`): the page context and its types, and the helpers a template may call. Nothing
 * else in src/ is imported by a template or the client script; a stage's internals can change
 * without touching them (tests/unit/imports.test.ts holds this).
 */
export type { Alternate, Assets, Format, HeadData, ImageAsset, PageContext } from './render/context.ts';
export type { ClientData } from './render/client-data.ts';
export type { City, GalleryImage, Post, Review, Site, Venue } from './content/model.ts';
export type { Route, RouteTable } from './routes/table.ts';

/** Links: an absolute URL under the site's base URL; the path of page `n` of a paginated list. */
export { absoluteUrl } from './routes/paths.ts';
export { listPagePath } from './routes/table.ts';
/** Head and structured data: the document title, JSON safe inside <script>, the reviews' aggregate. */
export { documentTitle } from './render/head.ts';
export { aggregateRating, jsonForScript } from './render/jsonld.ts';
/** The Content-Security-Policy every page states in its <meta> (the host's header says the same). */
export { contentSecurityPolicy } from './output/hosting.ts';
/** Dates: a day plus whole months (the next health check). */
export { addMonths } from './content/checks.ts';
