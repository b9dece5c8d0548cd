/** What a template receives: one context object per route; templates read nothing else. */
import type { ReactNode } from 'react';
import type { Post, Site } from '../content/model.ts';
import type { Translate } from '../content/texts.ts';
import type { Route, RouteTable } from '../routes/table.ts';
import type { ClientData } from './client-data.ts';

/** A processed image: the fallback `src` plus modern-format sources. */
export interface ImageAsset {
  src: string;
  width: number;
  height: number;
  sources: readonly { type: string; srcset: string }[];
}

/** Hashed asset URLs of this build. */
export interface Assets {
  /** The stylesheet's text (inlined in every page) and its CSP hash. */
  cssText: string;
  styleHash: string;
  /** Extra rules for visitors without JavaScript (loaded inside <noscript>). */
  noscriptCss: string;
  /** The enhancement script (one per site). */
  js: string;
  /** The tiny script redirect stubs and landing pages load to forward with the query string. */
  forward: string;
  /** Site icons and manifest. */
  icon: string;
  touchIcon: string;
  manifest: string;
  /** Look up a content image (path under content/images). */
  image(file: string): ImageAsset;
}

/** One `<link rel="alternate" hreflang>` entry. */
export interface Alternate {
  hreflang: string;
  href: string;
}

/** Everything the document head shows, computed from the route table and texts. */
export interface HeadData {
  title: string;
  description: string;
  /** Absolute canonical URL, or undefined for pages that have none (404). */
  canonical?: string;
  alternates: readonly Alternate[];
  robots?: string;
  ogType: 'website' | 'article';
  ogImage: string;
  ogLocale: string;
  /** JSON-LD objects, escaped by the Document template. */
  jsonLd: readonly object[];
  /** Target of a redirect stub or landing page (absolute path). */
  forward?: { target: string; delay: number };
}

/** Locale-aware formatting for the route's language. */
export interface Format {
  /** 250 → "250 €" (es) / "€250" (en). */
  price(amount: number): string;
  /** 2025-07-15 → "15 July 2025" in the route's language. */
  date(iso: string): string;
  /** 2025-06-30 → "Q2 2025"-style quarter label from the text table. */
  quarter(iso: string): string;
}

export interface PageContext {
  site: Site;
  route: Route;
  lang: string;
  t: Translate;
  routes: RouteTable;
  /** URL path of a site path (a route's path or target), under the base path of a GitHub Pages project site. */
  url(path: string): string;
  /** URL path of page `id` (pages.yaml) in this route's language. */
  link(id: string): string;
  /** URL path of the blog list, a category or a post in this route's language. */
  blogLink(what?: { category?: string; slug?: string }): string;
  assets: Assets;
  head: HeadData;
  format: Format;
  /** Language switcher entries: each language with the path of this page there (or its home). */
  languageLinks: readonly { lang: string; href: string; name: string; current: boolean }[];
  /** Data for the client script, emitted as a JSON block (not executable). */
  clientData: ClientData;
  /** A post's markdown body as HTML (raw HTML in it escaped, links filtered: content/markdown.ts). */
  postBody(post: Post): string;
  /**
   * A layout piece repeated on many pages (the stylesheet, menus, footer), rendered once per build
   * and language: `render` runs the first time `key` is asked for in this language, and the page
   * gets the piece's bytes, encoded once. `key` must name everything else the piece depends on
   * (like Hugo's partialCached). Returns raw HTML for `dangerouslySetInnerHTML`.
   */
  once(key: string, render: () => ReactNode | string): string;
}
