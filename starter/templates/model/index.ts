/**
 * This site's model: its own kinds of data beside the generator's (pages, posts, texts). Here one
 * kind, `links` (content/data/links.yaml); add kinds, checks, facts and pages made from data as the
 * site grows (see SiteModel in src/content/model.ts and docs/architecture.md).
 */
import { array, strictObject } from 'zod';
import { defineModel, fields, type PageContext as GenericContext } from '@site/api';

const data = {
  links: { file: 'data/links.yaml', schema: array(strictObject({ id: fields.id, url: fields.url })), unique: 'id' },
} as const;

export type Data = { links: { id: string; url: string }[] };
export type PageContext = GenericContext<Data>;

export const model = defineModel<Data>({ data });
