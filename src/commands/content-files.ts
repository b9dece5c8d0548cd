/** Reading and editing content YAML for the scaffolding commands, keeping the operator's comments and layout. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseDocument, type Document } from 'yaml';
import { YAML_OUT, YamlEdit } from './yaml-edit.ts';

/** A content file that is missing or unreadable YAML: the command stops (exit 1) naming it. */
export class ContentFileError extends Error {
  override name = 'ContentFileError';
}

/** Parse `rel` under `contentDir` as an editable YAML document. */
export function readDoc(contentDir: string, rel: string): Document {
  return sound(rel, parseDocument(readExisting(contentDir, rel)));
}

/** `rel` under `contentDir`, to be edited in place (yaml-edit.ts: what is not changed stays byte for byte). */
export function readEdit(contentDir: string, rel: string): YamlEdit {
  const edit = new YamlEdit(readExisting(contentDir, rel));
  sound(rel, edit.doc);
  return edit;
}

/** The text of `rel`, which must exist (else the command stops naming it). */
function readExisting(contentDir: string, rel: string): string {
  const file = path.join(contentDir, rel);
  if (!existsSync(file)) throw new ContentFileError(`${rel} does not exist in ${contentDir}`);
  return readFileSync(file, 'utf8');
}

/** `doc`, unless it is not valid YAML (the command stops naming its first mistake). */
function sound(rel: string, doc: Document): Document {
  if (doc.errors.length) throw new ContentFileError(`${rel}: ${doc.errors[0]!.message.split('\n')[0]} (fix it first: site check)`);
  return doc;
}

/** Write a document, an edited file or a text to `rel` under `contentDir`, creating folders. */
export function writeContent(contentDir: string, rel: string, content: Document | YamlEdit | string): void {
  const file = path.join(contentDir, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : content instanceof YamlEdit ? content.toString() : content.toString(YAML_OUT));
}

/** Fail with exit 1 when `rel` exists already: scaffolding never overwrites the operator's work. */
export function ensureAbsent(contentDir: string, rel: string): void {
  if (existsSync(path.join(contentDir, rel))) throw new ContentFileError(`${rel} already exists in ${contentDir}; nothing was written`);
}

/** The text of `rel` under `contentDir`. */
export function readText(contentDir: string, rel: string): string {
  return readFileSync(path.join(contentDir, rel), 'utf8');
}
