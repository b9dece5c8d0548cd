/**
 * What a page reads while it renders, beyond its route: the list of posts, and each text it asks
 * for. Incremental builds key a page on the texts it read (routes/inputs.ts), not on its whole
 * language table, so a text only some pages show renders only those pages again.
 *
 * Layout pieces (`ctx.once`: footer, menus, stylesheet, client data) are rendered once per build
 * and spliced into every page that shows them (render/page.ts). The texts a piece reads are its
 * own, not its pages': a text only a piece shows (the footer's) changes that piece, and the pages
 * showing it get the new piece's bytes spliced in where the old ones were, without rendering them
 * again (build.ts, `splicePages`).
 */

/**
 * Data a page reads is noted among its texts, under names that begin with a NUL character (no
 * template asks for a text by such a key): `DATA_READ` and a data kind's name (`site.data.<kind>`),
 * or `FACTS_READ` (`site.facts`). A page is then keyed on those kinds' values (routes/inputs.ts),
 * not on every data file.
 */
export const DATA_READ = '\0data:';
export const FACTS_READ = '\0facts';

/**
 * Text keys of the page's language read, in the order first read. Other languages' texts a page
 * shows (language names, texts the model shares) are keyed as before: every page's key
 * holds the texts the model shares across languages (routes/inputs.ts).
 */
export type TextList = readonly string[];

/** What one piece read while it was made (its nested pieces' reads included). */
export interface PieceReads {
  texts: TextList;
  /** A whole text table was enumerated: keyed on every text of its language. */
  all: boolean;
}

/** The reads of one render environment (one thread): the page rendering now, or the piece being made inside it. */
export class PageReads {
  /** Whether the page (or piece) read the list of posts or the whole route table. */
  posts = false;
  /** Whether it enumerated a text table (keyed on every text then). */
  all = false;
  private texts = new Set<string>();
  /** Pieces being made, outermost first (a piece may hold pieces). */
  private readonly outer: { posts: boolean; all: boolean; texts: Set<string> }[] = [];

  /** The language of the page rendering now (whose texts are recorded). */
  lang = '';

  /** A page starts rendering. */
  begin(lang: string): void {
    this.lang = lang;
    this.posts = false;
    this.all = false;
    this.texts = new Set();
    this.outer.length = 0;
  }

  /** A text of the page's language read. */
  text(key: string): void {
    this.texts.add(key);
  }

  /** The texts read since `begin` (or since the piece being made began), in the order first read. */
  textList(): string[] {
    return [...this.texts];
  }

  /** Whether the texts read are `list`, in its order (no list is made to know). */
  readList(list: TextList): boolean {
    if (this.texts.size !== list.length) return false;
    let i = 0;
    for (const k of this.texts) if (k !== list[i++]) return false;
    return true;
  }

  /** A piece starts being made: what it reads is its own until `leavePiece`. */
  enterPiece(): void {
    this.outer.push({ posts: this.posts, all: this.all, texts: this.texts });
    this.posts = false;
    this.all = false;
    this.texts = new Set();
  }

  /** The piece is made: its reads, and the page's (or enclosing piece's) back in place. */
  leavePiece(): PieceReads & { posts: boolean } {
    const made = { texts: [...this.texts], all: this.all, posts: this.posts };
    const o = this.outer.pop()!;
    this.posts = o.posts;
    this.all = o.all;
    this.texts = o.texts;
    return made;
  }

  /** Inside a piece being made: a piece it shows counts what that piece read (a page's skeleton does not). */
  get inPiece(): boolean {
    return this.outer.length > 0;
  }

  /** A piece shown inside the piece being made: its reads become the enclosing piece's. */
  addPiece(reads: PieceReads): void {
    for (const k of reads.texts) this.texts.add(k);
    this.all ||= reads.all;
  }
}

/**
 * Text lists interned by their content: pages of one kind read the same texts in the same order,
 * so a build of 4,700 pages has a few dozen lists, recorded once each.
 */
export class TextSets {
  readonly lists: TextList[] = [];
  private readonly index = new Map<string, number>();
  /** The list last added for each kind of page (`slot`): the next page of its kind most often read the same. */
  private readonly recent = new Map<string, number>();

  /** The number of the texts `reads` read, `slot` naming the kind of page (a template and language). */
  addRead(reads: PageReads, slot: string): number {
    const last = this.recent.get(slot);
    if (last !== undefined && reads.readList(this.lists[last]!)) return last;
    const i = this.add(reads.textList());
    this.recent.set(slot, i);
    return i;
  }

  /** Append `list` at the next number even if it is here already (a record's lists keep their numbers). */
  keep(list: TextList): void {
    const sig = JSON.stringify(list);
    const i = this.lists.push(list) - 1;
    if (!this.index.has(sig)) this.index.set(sig, i);
  }

  /** The list's number (the same list, the same number). */
  add(list: TextList): number {
    const sig = JSON.stringify(list); // keys may hold any character
    let i = this.index.get(sig);
    if (i === undefined) {
      i = this.lists.push(list) - 1;
      this.index.set(sig, i);
    }
    return i;
  }
}
