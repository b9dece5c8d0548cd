/**
 * A content YAML file edited in place by the scaffolding commands: each change is spliced into the
 * file's text, so everything else stays byte for byte (escapes such as `\u00a0`, quoting, flow
 * lists, comments, blank lines). Re-serialising the whole document wrote every `\u00a0` of a text
 * table as an invisible no-break space and respaced the operator's flow lists.
 *
 * Every change is made on the parsed document too. If the spliced text does not read back as that
 * document (a layout the splicing does not handle: a list item with a trailing comment on its own
 * line inside it, a block scalar with leading blank lines), the document is written whole instead,
 * so the file always holds what the command meant.
 */
import { isDeepStrictEqual } from 'node:util';
import { Document, isMap, isScalar, isSeq, parseDocument, Scalar, visit, type Node, type YAMLMap, type YAMLSeq } from 'yaml';

/** How the scaffolding commands write YAML (one line per text: no folding). */
export const YAML_OUT = { lineWidth: 0, flowCollectionPadding: false } as const;

interface Splice {
  at: number;
  end: number;
  text: string;
}

export class YamlEdit {
  readonly doc: Document;
  /** By what they change (a node replaced or marked: a later change of it replaces the earlier), in the order made. */
  private readonly splices = new Map<object, Splice>();
  /** A change the splices cannot express was made: the document is written whole. */
  private whole = false;

  /** The file's line end: what is added uses it too (a CRLF file stays CRLF). */
  private readonly eol: string;

  constructor(private readonly source: string) {
    this.doc = parseDocument(source);
    this.eol = source.includes('\r\n') ? '\r\n' : '\n';
  }

  /** Append `value` to the list at `path` ([] for a list at the top), in the list's own style. */
  append(path: readonly string[], value: unknown): void {
    const seq = path.length ? this.doc.getIn(path, true) : this.doc.contents;
    if (!isSeq(seq)) throw new Error(`${path.join('.') || 'the file'} is not a list`);
    this.splice(() => {
      const start = seq.range?.[0];
      if (start === undefined) return undefined;
      const last = seq.items.at(-1) as Node | undefined;
      if (seq.flow) return this.flowItem(seq, last, this.flowText(value));
      if (!last?.range) return undefined;
      return this.blockAfter(last.range[1], this.column(start), this.render(this.doc.createNode([value], { flow: false })));
    });
    seq.add(this.doc.createNode(value));
  }

  /**
   * Set `key` of the map at `path` to `value`; maps on the way that are missing are made. The key
   * must be new: replacing a value the operator wrote is not a scaffolding step.
   */
  put(path: readonly string[], key: string, value: unknown): void {
    let map = this.doc.contents;
    let depth = 0;
    for (; depth < path.length && isMap(map); depth++) {
      const next = map.get(path[depth], true);
      if (!isMap(next)) break;
      map = next;
    }
    if (!isMap(map)) throw new Error(`${path.slice(0, depth).join('.') || 'the file'} is not a map`);
    // The first key missing on the way, holding the rest of the path.
    const rest = [...path.slice(depth), key];
    if (map.has(rest[0])) {
      if (rest.length === 1) throw new Error(`${[...path, key].join('.')} is there already`);
      this.whole = true; // a scalar where a map was expected: written whole, as the document says
    }
    const nested = rest.slice(1).reduceRight<unknown>((acc, k) => ({ [k]: acc }), value);
    const entry = this.doc.createNode({ [rest[0]!]: nested }, { flow: false }) as YAMLMap;
    this.splice(() => {
      const target = map as YAMLMap;
      const last = target.items.at(-1);
      const lastNode = (last?.value ?? last?.key) as Node | undefined;
      if (target.flow) return this.flowItem(target, lastNode, this.flowText(entry).replace(/^\{|\}$/g, ''));
      if (!target.range || !lastNode?.range) return undefined;
      return this.blockAfter(lastNode.range[1], this.column((last!.key as Node).range?.[0] ?? target.range[0]), this.render(entry));
    });
    this.doc.setIn([...path.slice(0, depth), rest[0]!], entry.get(rest[0], true));
  }

  /** Set the value at `path` in a layout the splicing does not take (an empty key): the file is written whole. */
  set(path: readonly string[], value: unknown): void {
    this.doc.setIn(path, this.doc.createNode(value, { flow: true }));
    this.whole = true;
  }

  /** Replace the string at `path` (a scalar) with `value`, written double-quoted. */
  replaceString(path: readonly string[], value: string): void {
    const node = this.doc.getIn(path, true);
    if (!isScalar(node)) throw new Error(`${path.join('.')} is not a text`);
    this.splice(() => (node.range ? { at: node.range[0], end: node.range[1], text: JSON.stringify(value) } : undefined), node);
    node.value = value;
    node.type = Scalar.QUOTE_DOUBLE;
  }

  /** Prefix every text (string value of a key) with `mark`, where it is not already; returns how many changed. */
  markStrings(mark: (text: string) => string): number {
    let n = 0;
    visit(this.doc, {
      Pair: (_, pair) => {
        const node = pair.value;
        if (!isScalar(node) || typeof node.value !== 'string') return;
        const marked = mark(node.value);
        if (marked === node.value) return;
        const added = marked.slice(0, marked.length - node.value.length);
        const original = node.value;
        this.splice(() => {
          if (!node.range || !marked.endsWith(original)) return undefined;
          const [start, end] = node.range;
          // Inside quotes the mark goes after the opening one (escapes in the text stay as written);
          // a plain or block text is written double-quoted.
          if (node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE) return { at: start + 1, end: start + 1, text: added };
          if (node.type === Scalar.PLAIN) return { at: start, end, text: JSON.stringify(marked) };
          // A block text: at the start of its first line, after the indentation; one whose first
          // line starts with a space or is blank, or whose header sets the indentation (`|2`),
          // written double-quoted instead (its line end kept).
          const nl = this.source.indexOf('\n', start);
          if (nl < 0 || nl >= end) return undefined;
          const header = this.source.slice(start, nl).replace(/\s*(#.*)?$/, '');
          if (/^[|>][+-]?$/.test(header) && !/^[\s]/.test(original)) {
            const indent = /^[ ]*/.exec(this.source.slice(nl + 1))![0].length;
            return { at: nl + 1 + indent, end: nl + 1 + indent, text: added };
          }
          const tail = this.source[end - 1] === '\n' ? '\n' : '';
          return { at: start, end, text: JSON.stringify(marked) + tail };
        }, node);
        node.value = marked;
        n++;
      },
    });
    return n;
  }

  /** The file's new text: the original with the changes spliced in, or the document written whole. */
  toString(): string {
    if (!this.whole) {
      let text = this.source;
      // From the end of the text back, so offsets hold; of two at one offset, the one made first ends up first.
      const order = [...this.splices.values()].map((s, i) => ({ s, i })).sort((a, b) => b.s.at - a.s.at || b.i - a.i);
      for (const { s } of order) text = text.slice(0, s.at) + (this.eol === '\n' ? s.text : s.text.replace(/\r?\n/g, this.eol)) + text.slice(s.end);
      const back = parseDocument(text);
      if (!back.errors.length && isDeepStrictEqual(back.toJS(), this.doc.toJS())) return text;
    }
    const whole = this.doc.toString(YAML_OUT);
    return this.eol === '\n' ? whole : whole.replace(/\r?\n/g, this.eol);
  }

  private splice(make: () => Splice | undefined, of: object = {}): void {
    if (this.whole) return;
    const s = make();
    if (s) this.splices.set(of, s);
    else this.whole = true;
  }

  /** The column `offset` is at. */
  private column(offset: number): number {
    return offset - (this.source.lastIndexOf('\n', offset - 1) + 1);
  }

  /** `block` (lines of YAML at column 0) indented to `column`, as the lines after the one `end` is on. */
  private blockAfter(end: number, column: number, block: string): Splice {
    const nl = this.source.indexOf('\n', end - 1);
    const at = nl < 0 ? this.source.length : nl + 1;
    const pad = ' '.repeat(column);
    const lines = block.replace(/\n$/, '').split('\n').map((l) => (l ? pad + l : l));
    return { at, end: at, text: `${nl < 0 ? '\n' : ''}${lines.join('\n')}\n` };
  }

  /** An item added to a flow list or map, after its last item (or its opening bracket). */
  private flowItem(coll: YAMLSeq | YAMLMap, last: Node | undefined, item: string): Splice | undefined {
    if (last?.range) return { at: last.range[1], end: last.range[1], text: `, ${item}` };
    const start = coll.range?.[0];
    if (start === undefined || !'[{'.includes(this.source[start] ?? '')) return undefined;
    return { at: start + 1, end: start + 1, text: item };
  }

  private flowText(value: unknown): string {
    return this.render(this.doc.createNode(value, { flow: true })).trim();
  }

  private render(node: Node): string {
    const d = new Document();
    d.contents = node;
    return d.toString(YAML_OUT);
  }
}
