/**
 * JSON Schemas of every content file, generated from the zod schemas the build validates with, so
 * YAML editors (yaml-language-server, VS Code) autocomplete and check what the build will accept.
 */
import { lazy, number, record, string, toJSONSchema, union, type ZodType } from 'zod';
import * as S from './schema.ts';
import { dataFiles } from './load.ts';
import type { SiteModel } from './model.ts';

/** A text table (content/i18n/<lang>.yaml): nested groups of texts. */
const textTable: ZodType = lazy(() => record(string(), union([string(), number(), textTable])));

/** One generated schema: where it is written and which content files it describes. */
export interface SchemaFile {
  /** Path under schemas/, forward slashes. */
  file: string;
  /** Content files it describes: paths under the content folder, `*` for any name. */
  describes: string[];
  schema: Record<string, unknown>;
}

function generate(file: string, describes: string[], title: string, schema: ZodType): SchemaFile {
  // io: 'input': what the operator writes (fields with defaults may be left out).
  const json = toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const { $schema, ...rest } = json;
  return { file, describes, schema: { $schema, title, ...rest } };
}

/** Every content file's schema, in a stable order. */
export function contentSchemas(model: SiteModel): SchemaFile[] {
  return [
    generate('site.schema.json', ['site.yaml'], 'content/site.yaml: identity, languages, features', S.siteSchemaWith(model.config)),
    generate('pages.schema.json', ['pages.yaml'], "content/pages.yaml: the site's fixed pages", S.pagesSchema),
    ...dataFiles(model).map(({ file: rel, schema }) => {
      const name = rel.replace(/^data\//, '').replace(/\.yaml$/, '');
      return generate(`data/${name}.schema.json`, [rel], `content/${rel}`, schema);
    }),
    generate('i18n.schema.json', ['i18n/*.yaml'], 'content/i18n/<lang>.yaml: a text table (nested groups of texts, keyed)', textTable),
    generate('post.schema.json', ['blog/*/*.md'], 'Front matter of content/blog/<slug>/<lang>.md', S.postSchema),
  ];
}

/** The text of a schema file as committed (2-space JSON, final newline). */
export function schemaText(s: SchemaFile): string {
  return `${JSON.stringify(s.schema, null, 2)}\n`;
}
