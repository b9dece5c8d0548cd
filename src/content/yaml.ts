/** YAML files parsed with positions, so schema errors can point at a line. */
import { LineCounter, parseDocument, isMap, isNode, isScalar, type Document } from 'yaml';
import { codeFrame, type Diagnostics } from '../diagnostics.ts';

/** A parsed YAML file that can say where any field is. */
export interface YamlFile {
  file: string;
  source: string;
  /** Lines before `source` in the real file (front matter starts after `---`). */
  lineOffset: number;
  data: unknown;
  /** Line and column of the value at `path`, or of its nearest existing parent. */
  locate(path: readonly PropertyKey[]): { line: number; column: number };
  /** Line and column of the key `key` in the mapping at `path` (for unknown keys). */
  locateKey(path: readonly PropertyKey[], key: string): { line: number; column: number };
}

/** Parse `source`; YAML syntax errors are reported (file, line, column) and yield `undefined`. */
export function parseYaml(
  file: string,
  source: string,
  diags: Diagnostics,
  lineOffset = 0,
): YamlFile | undefined {
  const lineCounter = new LineCounter();
  const doc: Document = parseDocument(source, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    for (const err of doc.errors) {
      const pos = lineCounter.linePos(err.pos[0]);
      diags.error({
        code: 'yaml',
        file,
        line: pos.line + lineOffset,
        column: pos.col,
        message: `malformed YAML: ${err.message.split('\n')[0]}`,
        frame: codeFrame(source, pos.line, pos.col),
      });
    }
    return undefined;
  }
  const data = doc.toJS({ maxAliasCount: 100 });
  return {
    file,
    source,
    lineOffset,
    data,
    locate(path) {
      for (let n = path.length; n >= 0; n--) {
        const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n) as unknown[], true);
        if (isNode(node) && node.range) {
          const pos = lineCounter.linePos(node.range[0]);
          return { line: pos.line + lineOffset, column: pos.col };
        }
      }
      return { line: 1 + lineOffset, column: 1 };
    },
    locateKey(path, key) {
      const parent = path.length === 0 ? doc.contents : doc.getIn(path as unknown[], true);
      if (isMap(parent)) {
        const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === key);
        if (pair && isNode(pair.key) && pair.key.range) {
          const pos = lineCounter.linePos(pair.key.range[0]);
          return { line: pos.line + lineOffset, column: pos.col };
        }
      }
      return this.locate([...path, key]);
    },
  };
}
