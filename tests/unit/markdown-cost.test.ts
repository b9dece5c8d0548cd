/**
 * R-SAFE-14: the cost of rendering a post's markdown is bounded for any text the size limit allows.
 * Each hostile input (80 KB, the size that took marked 57 s in issue 23) is timed against a linear
 * baseline of the same size rendered by the same renderer in the same test: a ratio, so a busy
 * machine slows both alike. A quadratic construct is 50 to 1,000 times the baseline at this size;
 * the bound allows 30. Each input either renders or stops with a MarkdownLimitError (the build
 * reports it naming the post), within that bound. One test holds every input: an input over the
 * bound is timed once more before it counts (a pause of the machine is not the renderer's).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createMarkdown, MarkdownLimitError, MAX_NESTING, MAX_TABLE_COLUMNS } from '../../src/content/markdown.ts';

const SIZE = 80_000;
const RATIO = 30;

/** `unit` repeated to SIZE characters (cut at the size). */
const fill = (unit: string, size = SIZE) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

/** Ordinary post text: paragraphs with emphasis, links, code and lists, about SIZE characters. */
function ordinary(size = SIZE): string {
  const paragraph =
    'Madrid in *spring* is a city of long lunches and **late dinners**; book a table at [the market](/madrid) or ask for `the terrace`. ' +
    'The _old town_ is best on foot, and a driver waits ~~outside~~ nearby. Write to hello@example.com or see www.example.com for more.\n\n' +
    '- first, the museum\n- then _tapas_ in La Latina\n- and **flamenco** at night\n\n> A quote from a guest, kept short.\n\n## A heading\n\n';
  return fill(paragraph, size);
}

/** Milliseconds the fastest of `runs` renders took; `error` is what the last one threw, if anything. */
function timed(render: (s: string) => string, source: string, runs: number): { ms: number; error?: unknown } {
  let ms = Infinity;
  let error: unknown;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    try {
      render(source);
      error = undefined;
    } catch (err) {
      error = err;
    }
    ms = Math.min(ms, performance.now() - t);
  }
  return { ms, error };
}

const HOSTILE: [string, () => string][] = [
  ['`_a` x 40000 (issue 23: 57 s)', () => fill('_a')],
  ['`*a` x 40000', () => fill('*a')],
  ['`a_` x 40000 (intraword underscores)', () => fill('a_')],
  ['`**a` repeated', () => fill('**a')],
  ['`~~**a` repeated', () => fill('~~**a')],
  ['openers with one far closer: `*a ` ... `a*`', () => `${fill('*a ', SIZE - 2)}a*`],
  ['underscore openers with one far closer: `_a ` ... `a_`', () => `${fill('_a ', SIZE - 2)}a_`],
  ['strong openers with one far closer: `**a ` ... `a**`', () => `${fill('**a ', SIZE - 3)}a**`],
  ['strikethrough openers with one far closer: `~~a ` ... `a~~`', () => `${fill('~~a ', SIZE - 3)}a~~`],
  ['a run of e-mail characters before an `@`', () => `${fill('a', SIZE - 1)}@`],
  ['`[` x 80000', () => fill('[')],
  ['`[a` x 40000 (link openers)', () => fill('[a')],
  ['`[a](b ` repeated (unclosed links)', () => fill('[a](b ')],
  ['nested `>` x 80000', () => fill('>')],
  ['nested `> ` x 40000', () => `${fill('> ', SIZE - 2)}a\n`],
  ['a block quote with lazy lines: `> a` / `b` repeated', () => fill('> a\nb\n')],
  [`lists nested more than ${MAX_NESTING} deep`, () => Array.from({ length: 390 }, (_, i) => `${' '.repeat(i)}- a`).join('\n')],
  ['a list item with thousands of continuation lines', () => `- a\n${fill('  lorem ipsum dolor sit amet\n', SIZE - 4)}`],
  ['backtick runs of every length', () => Array.from({ length: 390 }, (_, i) => `e${'`'.repeat(i + 1)}`).join('')],
  ['`` `a `` repeated (unclosed code spans)', () => fill('`a ')],
  ['`<` x 80000', () => fill('<')],
  ['`<a ` repeated (unclosed tags)', () => fill('<a ')],
  ['`<!--` repeated', () => fill('<!--')],
  ['a link reference flood: 5,000 definitions and uses', () => fill('[a]: /b\n', SIZE / 2) + fill('[a] ', SIZE / 2)],
  ['distinct link references', () => Array.from({ length: 3000 }, (_, i) => `[r${i}]: /x${i}\n`).join('') + Array.from({ length: 3000 }, (_, i) => `[r${i}]`).join(' ')],
  [`a table ${MAX_TABLE_COLUMNS * 10} columns wide`, () => `|${'a|'.repeat(MAX_TABLE_COLUMNS * 10)}\n|${'-|'.repeat(MAX_TABLE_COLUMNS * 10)}\n${fill('|b|c|\n', SIZE / 2)}`],
  ['nested emphasis `*a **a ` ... `a** a*`', () => `${fill('*a **a ', SIZE / 2)}b${fill(' a** a*', SIZE / 2)}`],
];

describe('[R-SAFE-14] markdown rendering cost is bounded', () => {
  // One renderer and one baseline for every input: the fastest of three renders of ordinary text
  // of the same size, after a warm-up. One test per input (the loop of all of them in one test took
  // 10.5 s in a CI run beside four busy processes).
  let md: ReturnType<typeof createMarkdown>;
  let baseline: number;
  beforeAll(() => {
    md = createMarkdown();
    md(ordinary());
    baseline = Math.max(timed(md, ordinary(), 3).ms, 1);
  });

  it.each(HOSTILE)('R-SAFE-14: %s renders, or stops with a clear error, within a bound of a linear baseline', (name, make) => {
    const source = make();
    expect(source.length, name).toBeLessThanOrEqual(SIZE + 1000);
    let { ms, error } = timed(md, source, 1);
    if (ms >= RATIO * baseline) ({ ms, error } = timed(md, source, 1));
    if (error !== undefined) expect(error instanceof MarkdownLimitError && /^markdown: /.test((error as Error).message), `${name}: threw ${String(error)}`).toBe(true);
    expect(ms, `${name}: ${ms.toFixed(0)} ms, ${(ms / baseline).toFixed(0)} times the ${baseline.toFixed(1)} ms of ordinary text`).toBeLessThan(RATIO * baseline);
  });

  it('R-SAFE-14: the bounds never change a real post: ordinary text renders as marked renders it', () => {
    const html = md(ordinary(20_000));
    expect(html).toContain('<em>spring</em>');
    expect(html).toContain('<strong>late dinners</strong>');
    expect(html).toContain('<a href="mailto:hello@example.com">hello@example.com</a>');
    expect(html).toContain('<del>outside</del>');
    // An emphasis span longer than the scan window still closes while the post's budget lasts.
    expect(md(`*${'word '.repeat(200)}end*`)).toContain(`<em>${'word '.repeat(200)}end</em>`);
  });
});

describe('[R-SAFE-14] any other slow markdown is stopped', () => {
  it('R-SAFE-14: a post whose markdown takes longer than the limit stops with an error saying what to change', () => {
    // A list item with 12,000 continuation lines: marked lexes them one at a time and its cost grows
    // with their square (about a second here); the limit (5 s in builds) is 20 ms in this test.
    const md = createMarkdown({ limitMs: 20 });
    const slow = `- a\n${'  lorem ipsum dolor sit amet\n'.repeat(12_000)}`;
    const started = performance.now();
    expect(() => md(slow)).toThrow(MarkdownLimitError);
    expect(() => md(slow)).toThrow(/^markdown: rendering this post took over 0.02 s and was stopped\. .*Escape such characters \(\\\*\) or simplify that part$/);
    // The renderer is usable again for the next post.
    expect(md('*fine*')).toBe('<p><em>fine</em></p>\n');
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
