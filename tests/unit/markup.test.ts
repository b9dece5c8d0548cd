/**
 * The fast renderer (src/render/markup.ts) against React's own renderToStaticMarkup: the same
 * bytes for every tree, written without React where it says it can, and by React where it cannot.
 */
import { Component, createContext, createElement as h, Fragment, useContext, useId, useState, type ReactNode } from 'react';
import { preconnect, preinit, preload } from 'react-dom';
import { describe, expect, it } from 'vitest';
import { fallbacks, renderStaticMarkup } from '../../src/render/markup.ts';

/** Render `tree()` both ways: equal bytes, and whether the fast renderer handed it to React. */
function both(tree: () => ReactNode): { html: string; fellBack: boolean } {
  const react = renderStaticMarkup(tree(), '', 'react');
  const before = fallbacks.count;
  const fast = renderStaticMarkup(tree(), '', 'fast');
  expect(fast).toBe(react);
  return { html: fast, fellBack: fallbacks.count !== before };
}

const HOSTILE = `"quotes" & 'apostrophes' <tags> </script> </style> \u2028 \u0000 ‮ Ωμέγα 😀`;

/** Trees written without React: [name, tree]. */
const FAST: [string, () => ReactNode][] = [
  ['text, numbers, bigints and nothing', () => h('p', null, 'a', 1, 0, -0, 1e21, NaN, 10n, null, undefined, false, true, '', [[['deep']]])],
  ['escaping in text and attributes', () => h('div', { title: HOSTILE, 'data-x': HOSTILE, id: 7 }, HOSTILE, h('span', null, HOSTILE))],
  ['class, for, tabindex and aliases', () => h('label', { className: 'c', htmlFor: 'f', tabIndex: -1, acceptCharset: 'utf-8', httpEquiv: 'x', crossOrigin: 'anonymous' }, 'l')],
  ['booleans: HTML booleans, data- and aria-, others left out', () =>
    h('details', { open: true, hidden: false, 'data-on': true, 'data-off': false, 'aria-hidden': true, 'aria-busy': false, translate: true, inert: true, itemScope: 1, disabled: '' }, 'x')],
  ['booleanish and numeric rules', () => h('td', { draggable: true, spellCheck: false, contentEditable: 'true', colSpan: 2, rowSpan: 0, cols: 0, span: '3', size: 'x', start: 'y' }, 'x')],
  ['autoFocus, multiple, muted written in lower case', () => h('video', { autoFocus: true, muted: true, multiple: false, controls: true, playsInline: true })],
  ['capture and download', () => [h('a', { download: true, key: 1 }), h('a', { download: 'f.txt', key: 2 }), h('input', { capture: 'user', key: 3 })]],
  ['event handlers, refs, functions, symbols and invalid names are left out', () =>
    h('button', { onClick: () => 1, onclick: 'x', ref: null, suppressHydrationWarning: true, innerHTML: 'no', 'bad name': 1, '<x': 2, f: () => 1, s: Symbol('s'), type: 'button' }, 'b')],
  ['javascript: URLs blocked, others kept, empty src and href left out (an empty action kept)', () =>
    h(
      'div',
      null,
      h('a', { href: 'javascript:alert(1)' }, 'a'),
      h('a', { href: ' \u0001JaVa\nScRiPt:alert(1)' }, 'b'),
      h('a', { href: 'jump.html' }, 'c'),
      h('a', { href: '' }, 'empty a href kept'),
      h('link', { href: '' }),
      h('img', { src: '', alt: '' }),
      h('form', { action: '' }, 'f'),
      h('iframe', { src: 'javascript:x' }),
      h('svg', null, h('use', { xlinkHref: 'javascript:x' }), h('use', { xlinkHref: '#i' })),
    )],
  ['styles: names, units, custom properties, empty values', () =>
    h('div', { style: { marginTop: 0, paddingLeft: 4, lineHeight: 1.5, opacity: 0.5, '--brand-x': ' red ', msTransform: 'none', WebkitLineClamp: 2, color: '', border: null, zIndex: 3, flex: 1, content: '"<&>"' } }, 'x')],
  ['an empty style object writes nothing', () => h('div', { style: {} }, 'x')],
  ['SVG attributes and their aliases', () =>
    h('svg', { viewBox: '0 0 10 10', width: 10, height: 10, xmlnsXlink: 'http://www.w3.org/1999/xlink' }, h('path', { d: 'M0 0', strokeWidth: 2, fillRule: 'evenodd', strokeLinecap: 'round', xmlSpace: 'preserve', xlinkTitle: 't' }), h('title', null, 'in svg, in place'))],
  ['fragments, function components and arrays', () => {
    const Item = ({ n }: { n: number }) => h('li', null, 'item ', n);
    const List = ({ children }: { children?: ReactNode }) => h(Fragment, null, h('ul', null, children), null);
    return h(List, null, [1, 2, 3].map((n) => h(Item, { key: n, n })), h(Fragment, null, h(Fragment, null, 'text')));
  }],
  ['dangerouslySetInnerHTML', () => h('div', { dangerouslySetInnerHTML: { __html: '<b>raw & kept</b>' } })],
  ['select and options: value, defaultValue, multiple values, selected, text children', () =>
    h(
      'form',
      { method: 'post', action: '/x', encType: 'multipart/form-data', target: '_self', className: 'f' },
      h('select', { name: 's', value: 'b', onChange: () => 1 }, h('option', { value: 'a' }, 'A'), h('option', { value: 'b' }, 'B'), h('optgroup', { label: 'g' }, h('option', null, 'b'))),
      h('select', { defaultValue: 2 }, h('option', { value: 1 }, 'one'), h('option', { value: 2 }, 'two')),
      h('select', { multiple: true, value: ['x', 'z'] }, ['x', 'y', 'z'].map((v) => h('option', { key: v, value: v }, v))),
      h('select', null, h('option', { selected: true }, 'chosen'), h('option', null, 'other ', 3)),
    )],
  ['textarea: value, defaultValue, children, a leading newline', () =>
    h('div', null, h('textarea', { value: 'v <b>', readOnly: true }), h('textarea', { defaultValue: '\nfirst line' }), h('textarea', { name: 't' }, 'child'), h('textarea', null, ['only']), h('textarea', { rows: 3 }))],
  ['input: checked, defaultChecked, value, defaultValue, form attributes', () =>
    h(
      'div',
      null,
      h('input', { type: 'checkbox', defaultChecked: true, name: 'c', value: 'on' }),
      h('input', { type: 'radio', checked: false, defaultChecked: true }),
      h('input', { type: 'text', defaultValue: 'd "q"', required: true, maxLength: 20, autoComplete: 'off' }),
      h('input', { type: 'submit', formAction: '/go', formMethod: 'post', formEncType: 'x', formTarget: '_top', name: 'n', formNoValidate: true }),
      h('button', { type: 'submit', name: 'b', formAction: 'javascript:x', value: 'v' }, 'send'),
    )],
  ['a document: html, head, body; meta charset and viewport first, then the other hoisted elements, then the rest of the head', () =>
    h(
      'html',
      { lang: 'en', dir: 'ltr' },
      h(
        'head',
        null,
        h('meta', { name: 'description', content: 'd' }),
        h('meta', { name: 'viewport', content: 'width=device-width' }),
        h('meta', { charSet: 'utf-8' }),
        h('title', null, 'T & t'),
        h('script', { type: 'application/json', dangerouslySetInnerHTML: { __html: '{"a":1}' } }),
        h('style', null, 'a{color:red}</style><script>'),
        h('link', { rel: 'stylesheet', href: '/s.css' }),
        h('link', { rel: 'canonical', href: '/c' }),
        h('link', { rel: 'alternate', hrefLang: 'es', href: '/es/c' }),
        h('noscript', null, h('meta', { httpEquiv: 'refresh', content: '0; url=/x' }), h('link', { rel: 'stylesheet', href: '/n.css' })),
        h('meta', { itemProp: 'name', content: 'in place' }),
        h('script', { src: '/a.js', defer: true }),
      ),
      h('body', { className: 'b' }, h('main', null, 'm'), h('script', null, 'if (a </script> b) {}')),
    )],
  ['a document without a head: React opens one', () => h('html', null, h('body', null, h('meta', { name: 'x', content: 'y' }), 'text'))],
  ['no document: hoisted elements go first', () => h('div', null, 'before', h('title', null, ['one']), h('meta', { name: 'a', content: 'b' }), h('link', { rel: 'icon', href: '/i.svg' }), 'after')],
  ['a title of several children is empty, as React writes it', () => h('head', null, h('title', null, 'a', ' | ', 'b'))],
  ['images: lazy, in a picture, low priority, data URLs', () =>
    h(
      'div',
      null,
      h('img', { src: '/a.jpg', alt: 'a', loading: 'lazy', decoding: 'async', fetchPriority: 'high' }),
      h('picture', null, h('source', { type: 'image/webp', srcSet: '/a.webp 1x', sizes: '100vw' }), h('img', { src: '/b.jpg', alt: '' })),
      h('img', { src: '/c.jpg', fetchPriority: 'low' }),
      h('img', { src: 'data:image/gif;base64,R0lGOD', alt: 'd' }),
      h('noscript', null, h('img', { src: '/d.jpg' })),
    )],
  ['image preloads from ReactDOM.preload: high first, each once, in the head', () => {
    const Pic = ({ file, high }: { file: string; high?: boolean }) => {
      preload(`/${file}.jpg`, { as: 'image', imageSrcSet: `/${file}.webp 1x`, imageSizes: '50vw', type: 'image/webp', fetchPriority: high ? 'high' : undefined });
      preload(`/${file}.jpg`, { as: 'image', imageSrcSet: `/${file}.webp 1x`, imageSizes: '50vw' });
      return h('img', { src: `/${file}.jpg`, alt: file, loading: 'lazy' });
    };
    const Plain = () => {
      preload('/plain.jpg', { as: 'image' });
      return null;
    };
    return h('html', null, h('head', null, h('meta', { charSet: 'utf-8' }), h('title', null, 't')), h('body', null, h(Pic, { file: 'low' }), h(Pic, { file: 'high', high: true }), h(Plain)));
  }],
  ['custom elements: attributes as given', () => h('my-el', { className: 'c', 'some-attr': 'x', flag: true, off: false, obj: { a: 1 }, style: { color: 'red' }, onClick: () => 1, htmlFor: 'f' }, 'c')],
  ['void elements', () => h('p', null, 'a', h('br'), h('hr', { className: 'x' }), h('wbr'), h('col', { span: 2 }), h('area', { href: '/a' }), h('embed', { src: '/e' }), h('track', { src: '/t' }), h('base', { href: '/' }))],
  ['values as React turns them into text: valueOf before toString (a date library\'s object), Symbol.toPrimitive', () => {
    const d = { valueOf: () => 1700000000000, toString: () => 'Tue, 14 Nov 2023' };
    const three = { valueOf: () => 3, toString: () => 'three' };
    const p = { [Symbol.toPrimitive]: (hint: string) => `hint:${hint}` };
    return h(
      'div',
      null,
      h('time', { dateTime: d, 'data-x': d, style: { width: d, '--d': d } }, 't'),
      h('textarea', { rows: three, value: p }),
      h('a', { href: p }, 'x'),
      h('select', { value: '1' }, h('option', { value: { valueOf: () => 1, toString: () => 'one' } }, 'x')),
      h('my-el', { at: d }),
    );
  }],
  ['names with a hyphen that are not custom elements (font-face, annotation-xml…)', () =>
    h('svg', null, h('font-face', { className: 'c', fontFamily: 'f', flag: true, htmlFor: 'x', onclick: 'y' }), h('color-profile', { xlinkHref: '#x' }), h('missing-glyph', { strokeWidth: 2 }), h('math', null, h('annotation-xml', { encoding: 'x', b: true })))],
  ['tables', () => h('table', null, h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'h'))), h('tbody', null, h('tr', null, h('td', { colSpan: 2 }, 1))))],
];

/** Trees React writes (the fast renderer hands them over whole). */
const REACT: [string, () => ReactNode][] = [
  ['a hook', () => {
    const Counter = () => h('span', null, useState(3)[0]);
    return h('div', null, h(Counter));
  }],
  ['an id from useId', () => {
    const Field = () => h('input', { id: useId() });
    return h(Field);
  }],
  ['context', () => {
    const C = createContext('default');
    const Read = () => h('b', null, useContext(C));
    return h(C.Provider, { value: 'given' }, h(Read));
  }],
  ['a class component', () => {
    class K extends Component<{ n: number }> {
      override render() {
        return h('i', null, this.props.n);
      }
    }
    return h(K, { n: 4 });
  }],
  ['an eager image outside a picture (React preloads it)', () => h('html', null, h('head'), h('body', null, h('img', { src: '/hero.jpg', alt: 'h' })))],
  ['an async script (a resource)', () => h('html', null, h('head', null, h('script', { src: '/a.js', async: true })), h('body'))],
  ['a stylesheet with a precedence (a resource)', () => h('html', null, h('head', null, h('link', { rel: 'stylesheet', href: '/s.css', precedence: 'default' })), h('body'))],
  ['other resource calls (preconnect, preinit)', () => {
    const R = () => {
      preconnect('https://example.com');
      preinit('/s.css', { as: 'style' });
      return h('p', null, 'r');
    };
    return h(R);
  }],
  ['pre (its leading newline rule)', () => h('pre', null, '\ncode')],
  ['an option whose text is an element', () => h('select', { value: 'x' }, h('option', null, h('b', null, 'x')))],
  ['an iterable that is not an array', () => h('ul', null, new Set([h('li', { key: 1 }, 'one')]))],
  ['a hook whose refusal the template catches', () => {
    const C = () => {
      let v: string;
      try {
        v = useState('hooked')[0];
      } catch {
        v = 'no hooks';
      }
      return h('p', null, v);
    };
    return h(C);
  }],
];

describe('[R-BUILD-4] the fast renderer writes what React writes', () => {
  for (const [name, tree] of FAST) {
    it(`without React: ${name}`, () => {
      const { fellBack } = both(tree);
      expect(fellBack, 'it handed the tree to React').toBe(false);
    });
  }
  for (const [name, tree] of REACT) {
    it(`by React: ${name}`, () => {
      const { fellBack } = both(tree);
      expect(fellBack, 'the fast renderer wrote it itself').toBe(true);
    });
  }

  it('a piece rendered inside a page (a nested render), React inside the fast one and back', () => {
    const Counter = () => h('span', null, useState('hooked')[0]);
    const Piece = ({ hooks }: { hooks: boolean }) => h('div', { dangerouslySetInnerHTML: { __html: renderStaticMarkup(hooks ? h(Counter) : h('em', null, 'plain')) } });
    const page = () => h('html', null, h('head', null, h('title', null, 't')), h('body', null, h(Piece, { hooks: true }), h(Piece, { hooks: false })));
    const before = fallbacks.count;
    const { html } = both(page);
    // The outer page on the fast path, the hooked piece by React (twice: once per render of the page).
    expect(fallbacks.count - before).toBe(2);
    expect(html).toContain('<span>hooked</span>');
    expect(html).toContain('<em>plain</em>');
    // React's preload still reaches React's own request afterwards.
    const Pre = () => {
      preload('/z.jpg', { as: 'image', fetchPriority: 'high' });
      return h('p', null, useState('p')[0]);
    };
    expect(both(() => h('html', null, h('head'), h('body', null, h(Pre)))).html).toContain('<link rel="preload" href="/z.jpg" as="image" fetchPriority="high"/>');
  });

  it('an error a template throws is that error, from either renderer', () => {
    const Broken = () => {
      throw new RangeError('the template broke');
    };
    expect(() => renderStaticMarkup(h('div', null, h(Broken)), '', 'fast')).toThrow(RangeError);
    expect(() => renderStaticMarkup(h('div', null, h(Broken)), '', 'react')).toThrow(RangeError);
    // What React refuses, React says: the fast renderer hands it over.
    expect(() => renderStaticMarkup(h('div', null, { an: 'object' } as unknown as ReactNode))).toThrow(/Objects are not valid as a React child/);
    expect(() => renderStaticMarkup(h('div', { dangerouslySetInnerHTML: { __html: 'x' } }, 'and children'))).toThrow(/Can only set one of/);
    expect(() => renderStaticMarkup(h('bad tag'))).toThrow(/Invalid tag/);
    // A component that suspends: React's own words.
    const Suspends = () => {
      throw Promise.resolve(1);
    };
    expect(() => renderStaticMarkup(h('div', null, h(Suspends)))).toThrow(/A component suspended/);
  });

  it('React\'s renderer keeps its image preloads after react-dom/server is loaded by a template, after fast renders', async () => {
    const Pre = ({ src }: { src: string }) => {
      preload(src, { as: 'image', fetchPriority: 'high' });
      return h('p', null, useState(src)[0]);
    };
    const page = (src: string) => h('html', null, h('head'), h('body', null, h(Pre, { src })));
    expect(renderStaticMarkup(page('/before.jpg'))).toContain('<link rel="preload" href="/before.jpg"');
    await import('react-dom/server');
    expect(renderStaticMarkup(page('/after.jpg'))).toContain('<link rel="preload" href="/after.jpg"');
    expect(renderStaticMarkup(page('/react.jpg'), '', 'react')).toContain('<link rel="preload" href="/react.jpg"');
  });

  it('a tree deeper than the fast renderer\'s stack is React\'s to write', () => {
    let t: ReactNode = 'x';
    for (let i = 0; i < 6000; i++) t = h('div', null, t);
    const before = fallbacks.count;
    // (React's own output of so deep a tree depends on how deep the stack already is: not compared.)
    expect(renderStaticMarkup(t)).toMatch(/^<div><div>.*x.*<\/div><\/div>$/s);
    expect(fallbacks.count - before).toBe(1);
  });

  it('a prefix goes before the document', () => {
    expect(renderStaticMarkup(h('p', null, 'x'), '<!doctype html>')).toBe('<!doctype html><p>x</p>');
    expect(renderStaticMarkup(h('p', null, 'x'), '<!doctype html>', 'react')).toBe('<!doctype html><p>x</p>');
  });
});

/** A small seeded generator (mulberry32): the same trees on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TAGS = ['div', 'span', 'p', 'a', 'ul', 'li', 'section', 'svg', 'path', 'g', 'title', 'meta', 'link', 'script', 'style', 'noscript', 'picture', 'img', 'source', 'select', 'option', 'optgroup', 'textarea', 'input', 'button', 'form', 'label', 'table', 'tbody', 'tr', 'td', 'br', 'hr', 'wbr', 'head', 'body', 'html', 'my-widget', 'details', 'summary', 'time', 'template', 'iframe', 'video', 'math', 'foreignObject'];
const NAMES = ['className', 'id', 'href', 'src', 'srcSet', 'alt', 'title', 'rel', 'name', 'value', 'defaultValue', 'checked', 'defaultChecked', 'selected', 'disabled', 'hidden', 'open', 'style', 'tabIndex', 'htmlFor', 'role', 'aria-label', 'aria-hidden', 'data-x', 'data-flag', 'itemProp', 'charSet', 'content', 'httpEquiv', 'loading', 'fetchPriority', 'async', 'defer', 'type', 'rows', 'cols', 'span', 'start', 'rowSpan', 'download', 'capture', 'draggable', 'spellCheck', 'onClick', 'viewBox', 'strokeWidth', 'xlinkHref', 'action', 'formAction', 'method', 'encType', 'target', 'multiple', 'muted', 'autoFocus', 'precedence', 'sizes', 'crossOrigin', 'lang', 'dir', 'translate', 'x y', 'suppressHydrationWarning'];
const VALUES: unknown[] = ['', 'a', 'viewport', 'stylesheet', 'icon', 'lazy', 'high', 'low', 'javascript:alert(1)', '\tjavascript:x', 'data:image/png;base64,AA', '/x.jpg', `"<&'>"`, '\n lead', 'Ωμέγα', 0, 1, -1, 2.5, NaN, 10n, true, false, null, undefined, () => 1, { color: 'red', marginTop: 3, '--v': ' x ' }, ['x', 'y'], Symbol.for('s')];
const TEXTS: unknown[] = ['text', '', `<b>&"'`, 0, 7, 10n, true, false, null, undefined, '\nnl', 'x'.repeat(40)];

/** A random tree of intrinsic elements, fragments, components, text and arrays (at most `depth` deep). */
function randomTree(next: () => number, depth: number): ReactNode {
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const r = next();
  if (depth <= 0 || r < 0.2) return pick(TEXTS) as ReactNode;
  if (r < 0.27) return Array.from({ length: Math.floor(next() * 4) }, () => randomTree(next, depth - 1));
  if (r < 0.32) return h(Fragment, null, randomTree(next, depth - 1), randomTree(next, depth - 1));
  if (r < 0.37) {
    const C = ({ children }: { children?: ReactNode }) => h('i', null, children);
    return h(C, null, randomTree(next, depth - 1));
  }
  const props: Record<string, unknown> = {};
  for (let i = Math.floor(next() * 5); i > 0; i--) props[pick(NAMES)] = pick(VALUES);
  const tag = pick(TAGS);
  if (next() < 0.1) props.dangerouslySetInnerHTML = { __html: '<u>raw</u>' };
  else {
    const children = Array.from({ length: Math.floor(next() * 3) }, () => randomTree(next, depth - 1));
    if (children.length) props.children = children.length === 1 ? children[0] : children;
  }
  return h(tag, props);
}

describe('[R-BUILD-4] random trees: the fast renderer against React', () => {
  it('600 random trees (seeded): the same output or the same error; most written without React', () => {
    let fast = 0;
    for (let seed = 1; seed <= (Number(process.env.MARKUP_FUZZ_SEEDS) || 600); seed++) {
      const tree = () => randomTree(random(seed), 4);
      let react: string | Error;
      try {
        react = renderStaticMarkup(tree(), '', 'react');
      } catch (e) {
        react = e as Error;
      }
      const before = fallbacks.count;
      let mine: string | Error;
      try {
        mine = renderStaticMarkup(tree(), '', 'fast');
      } catch (e) {
        mine = e as Error;
      }
      if (react instanceof Error) expect(mine instanceof Error ? mine.message : mine, `seed ${seed}`).toBe(react.message);
      else expect(mine, `seed ${seed}`).toBe(react);
      if (fallbacks.count === before) fast++;
    }
    // (Most random trees hold something only React writes; enough do not to test the fast path.)
    expect(fast).toBeGreaterThan(100);
  });
});
