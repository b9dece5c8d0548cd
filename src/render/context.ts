/** What a template receives: one context object per route; templates read nothing else. */
import type { ReactNode } from 'react';
import type { ConfigExtension, Post, Site, SiteData } from '../content/model.ts';
import type { Translate } from '../content/texts.ts';
import type { Route, RouteTable } from '../routes/table.ts';

/** A processed image: the fallback `src` plus modern-format sources. */
export interface ImageAsset {
  src: string;
  width: number;
  height: number;
  sources: readonly { type: string; srcset: string }[];
  /** The 1200x630 JPEG made for previews (og:image) of an image a post is shared with. */
  share?: string;
}

/** Hashed asset URLs of this build. */
export interface Assets {
  /** The stylesheet's text (inlined in every page that takes it whole) and its CSP hash. */
  cssText: string;
  styleHash: string;
  /**
   * The first-screen part of the stylesheet (templates/styles/first-screen.css, when the templates
   * have one): pages that link the whole stylesheet (`href`, hashed) after their first screen inline
   * only this part, so they fit the first round trip (R-VIS-8).
   */
  firstScreen?: { cssText: string; styleHash: string; href: string };
  /** Every inline stylesheet's CSP hash (the whole one first): the one policy names them all. */
  styleHashes?: readonly string[];
  /** Extra rules for visitors without JavaScript (loaded inside <noscript>). */
  noscriptCss: string;
  /** The enhancement script (one per site). */
  js: string;
  /**
   * The pre-paint boot (`client/boot.ts`, when the site has one): its minified text, inlined in
   * the head, and its base64 SHA-256, which the one policy names (decisions.md: at most 1 KB).
   */
  boot?: { text: string; hash: string };
  /** Every inline script's CSP hash: the one policy (meta and host header) names them all. */
  scriptHashes?: readonly string[];
  /** URLs of the files the templates derive from the whole site (TemplateModule.assetFiles), by name. */
  files?: Readonly<Record<string, string>>;
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
  /** The document title (the page title with the brand, where it fits). */
  title: string;
  /** The page's own title. */
  pageTitle: string;
  description: string;
  /** Absolute canonical URL, or undefined for pages that have none (404). */
  canonical?: string;
  alternates: readonly Alternate[];
  robots?: string;
  ogType: 'website' | 'article';
  /** Absolute URL of the preview image (a post's own image, else the model's socialImage), if there is one. */
  ogImage?: string;
  /** The preview image's alt text when it is a post's own image (the social image's is the template's). */
  ogImageAlt?: string;
  ogLocale: string;
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
  /** 2025-06-30 → "June 2025" in the route's language. */
  month(iso: string): string;
  /** A date range the language's way: "3–7 May 2027" (`unit` month: "May – June 2027"). */
  range(from: string, to: string, unit?: 'day' | 'month'): string;
}

export interface PageContext<D = SiteData, C = ConfigExtension> {
  site: Site<D, C>;
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
  /** Language switcher entries: each language with the path of this page there (or its front page). */
  languageLinks: readonly { lang: string; href: string; name: string; current: boolean }[];
  /** The texts of another language (a message written in one language on every page). */
  textsOf(lang: string): Translate;
  /** Absolute URL of a content image as published (for structured data and previews). */
  imageUrl(file: string): string;
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
