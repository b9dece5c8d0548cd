/**
 * The generator's one public module for templates/ and client/ (as Astro templates import
 * `astro:content`): the page context and its types, the helpers a template may call, and what a
 * site's model (templates/model/) is declared with. Nothing else in src/ is imported by a template,
 * the model or the client script; a stage's internals can change without touching them
 * (tests/unit/imports.test.ts holds this).
 */
export type { Alternate, Assets, Format, HeadData, ImageAsset, PageContext } from './render/context.ts';
export type { Translate } from './content/texts.ts';
export type { ConfigExtension, ContentRef, DataKind, ImageRef, LoadedParts, Post, Report, Scaffold, Site, SiteData, SiteModel } from './content/model.ts';
export type { Fact } from './content/facts.ts';
export type { Route, RouteTable } from './routes/table.ts';

/** A site's model: declared with `defineModel`, its schemas built from zod and these field types. */
export { defineModel } from './content/model.ts';
export { fields } from './content/schema.ts';

/** Links: an absolute URL under the site's base URL; a path in a language; the path of page `n` of a list; the base path. */
export { absoluteUrl, basePathOf as basePath, localize as localizedPath } from './routes/paths.ts';
export { listPagePath } from './routes/table.ts';
/** Head: the document title; JSON safe inside <script> (JSON-LD, the client data). */
export { documentTitle } from './render/head.ts';
export { jsonForScript } from './render/json-script.ts';
/** The Content-Security-Policy every page states in its <meta> (the host's header says the same). */
export { contentSecurityPolicy, inlineHashesOf } from './output/hosting.ts';

/** For a model's `site new <kind>` scaffolds: edit content YAML keeping comments, mark drafts untranslated. */
export { readDoc, readEdit, writeContent } from './commands/content-files.ts';
export { markAll } from './commands/new-language.ts';
export { markUntranslated, UNTRANSLATED } from './content/untranslated.ts';
export { UsageError } from './commands/usage.ts';
