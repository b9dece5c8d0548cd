/**
 * React elements to static HTML: what react-dom/server's `renderToStaticMarkup` (19.2) writes for
 * them, written without its request, segments and chunk lists (its renderer was ~60 % of a cold
 * build's page time: issue 25's profile, docs/benchmarks.md).
 *
 * It covers what static templates use: function components, fragments, HTML and SVG elements with
 * React's attribute rules, forms, and the document's head as React arranges it (its `<meta
 * charset>` and viewport first, then the other hoisted `<title>`, `<meta>` and `<link>` elements,
 * then the rest of the head). For anything else (hooks, context, class components, Suspense,
 * portals, resources React preloads or de-duplicates: async scripts, stylesheets with a
 * precedence, eagerly loaded images; an element React would reject) it throws `Unsupported`, and
 * `renderStaticMarkup` renders the whole tree with React instead. React stays the reference: the
 * tests compare both on every page of the site and on hostile trees (tests/unit/markup.test.ts).
 */
import path from 'node:path';
import { requireCjs } from '../require.ts';

/** A tree this module does not write as React would: React renders it. */
class Unsupported extends Error {}
const UNSUPPORTED = new Unsupported('not supported by the fast renderer');

const ELEMENT = Symbol.for('react.transitional.element');
const FRAGMENT = Symbol.for('react.fragment');

// React's format context: insertion modes and tag scopes, as getChildFormatContext has them.
const ROOT = 0;
const HTML = 1;
const BODY = 2; // any HTML element
const HEAD = 3;
const SVG = 4;
const MATH = 5;
const TABLE = 6;
const TABLE_BODY = 7;
const ROW = 8;
const COLGROUP = 9;
const IN_NOSCRIPT = 1;
const IN_PICTURE = 2;

interface Format {
  mode: number;
  selected: unknown;
  scope: number;
}

const ROOT_FORMAT: Format = { mode: ROOT, selected: null, scope: 0 };

function childFormat(parent: Format, type: string, props: Props): Format {
  const scope = parent.scope & -25;
  switch (type) {
    case 'noscript':
      return { mode: BODY, selected: null, scope: scope | IN_NOSCRIPT };
    case 'select':
      return { mode: BODY, selected: props.value != null ? props.value : props.defaultValue, scope };
    case 'svg':
      return { mode: SVG, selected: null, scope };
    case 'picture':
      return { mode: BODY, selected: null, scope: scope | IN_PICTURE };
    case 'math':
      return { mode: MATH, selected: null, scope };
    case 'foreignObject':
      return { mode: BODY, selected: null, scope };
    case 'table':
      return { mode: TABLE, selected: null, scope };
    case 'thead':
    case 'tbody':
    case 'tfoot':
      return { mode: TABLE_BODY, selected: null, scope };
    case 'colgroup':
      return { mode: COLGROUP, selected: null, scope };
    case 'tr':
      return { mode: ROW, selected: null, scope };
    case 'head':
      if (parent.mode < BODY) return { mode: HEAD, selected: null, scope };
      break;
    case 'html':
      if (parent.mode === ROOT) return { mode: HTML, selected: null, scope };
  }
  if (parent.mode >= TABLE || parent.mode < BODY) return { mode: BODY, selected: null, scope };
  return parent.scope !== scope ? { mode: parent.mode, selected: parent.selected, scope } : parent;
}

type Props = Record<string, unknown>;

const hasOwn = Object.prototype.hasOwnProperty;

/** A value as text as React makes it, `"" + value`: an object's valueOf before its toString (a date library's milliseconds). */
function str(value: unknown): string {
  return '' + (value as string);
}

const HTML_ESCAPE = /["'&<>]/;
/** React's escapeTextForBrowser. */
function escape(text: string): string {
  // (`test` first: most text has nothing to escape, and it allocates no match.)
  if (!HTML_ESCAPE.test(text)) return text;
  let html = '';
  let last = 0;
  let i = 0;
  for (; i < text.length; i++) {
    let rep: string;
    switch (text.charCodeAt(i)) {
      case 34:
        rep = '&quot;';
        break;
      case 38:
        rep = '&amp;';
        break;
      case 39:
        rep = '&#x27;';
        break;
      case 60:
        rep = '&lt;';
        break;
      case 62:
        rep = '&gt;';
        break;
      default:
        continue;
    }
    if (last !== i) html += text.slice(last, i);
    last = i + 1;
    html += rep;
  }
  return last !== i ? html + text.slice(last, i) : html;
}

/** escapeTextForBrowser of any value: booleans, numbers and bigints as they are, the rest as `"" + value`. */
function escapeValue(value: unknown): string {
  if (typeof value === 'string') return escape(value);
  if (typeof value === 'boolean' || typeof value === 'number' || typeof value === 'bigint') return `${value}`;
  // (An object's own toString may do anything: React calls it once, and so does this.)
  return escape(str(value));
}

const VALID_ATTRIBUTE_NAME =
  /^[:A-Z_a-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD][:A-Z_a-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\-.0-9\u00B7\u0300-\u036F\u203F-\u2040]*$/;
const attributeNames = new Map<string, boolean>();
function safeAttributeName(name: string): boolean {
  let ok = attributeNames.get(name);
  if (ok === undefined) attributeNames.set(name, (ok = VALID_ATTRIBUTE_NAME.test(name)));
  return ok;
}

const VALID_TAG = /^[a-zA-Z][a-zA-Z:_.\-\d]*$/;
const tagNames = new Set<string>();
function openTag(tag: string): string {
  if (!tagNames.has(tag)) {
    // (React throws "Invalid tag": it says so itself.)
    if (!VALID_TAG.test(tag)) throw UNSUPPORTED;
    tagNames.add(tag);
  }
  return `<${tag}`;
}

const UNITLESS = new Set(
  'animationIterationCount aspectRatio borderImageOutset borderImageSlice borderImageWidth boxFlex boxFlexGroup boxOrdinalGroup columnCount columns flex flexGrow flexPositive flexShrink flexNegative flexOrder gridArea gridRow gridRowEnd gridRowSpan gridRowStart gridColumn gridColumnEnd gridColumnSpan gridColumnStart fontWeight lineClamp lineHeight opacity order orphans scale tabSize widows zIndex zoom fillOpacity floodOpacity stopOpacity strokeDasharray strokeDashoffset strokeMiterlimit strokeOpacity strokeWidth MozAnimationIterationCount MozBoxFlex MozBoxFlexGroup MozLineClamp msAnimationIterationCount msFlex msZoom msFlexGrow msFlexNegative msFlexOrder msFlexPositive msFlexShrink msGridColumn msGridColumnSpan msGridRow msGridRowSpan WebkitAnimationIterationCount WebkitBoxFlex WebKitBoxFlexGroup WebkitBoxOrdinalGroup WebkitColumnCount WebkitColumns WebkitFlex WebkitFlexGrow WebkitFlexPositive WebkitFlexShrink WebkitLineClamp'.split(
    ' ',
  ),
);

// React's aliases: attribute names written otherwise in HTML and SVG.
const ALIASES = new Map<string, string>([
  ['acceptCharset', 'accept-charset'],
  ['htmlFor', 'for'],
  ['httpEquiv', 'http-equiv'],
  ['crossOrigin', 'crossorigin'],
  ...'accentHeight alignmentBaseline arabicForm baselineShift capHeight clipPath clipRule colorInterpolation colorInterpolationFilters colorProfile colorRendering dominantBaseline enableBackground fillOpacity fillRule floodColor floodOpacity fontFamily fontSize fontSizeAdjust fontStretch fontStyle fontVariant fontWeight glyphName glyphOrientationHorizontal glyphOrientationVertical horizAdvX horizOriginX imageRendering letterSpacing lightingColor markerEnd markerMid markerStart overlinePosition overlineThickness paintOrder pointerEvents renderingIntent shapeRendering stopColor stopOpacity strikethroughPosition strikethroughThickness strokeDasharray strokeDashoffset strokeLinecap strokeLinejoin strokeMiterlimit strokeOpacity strokeWidth textAnchor textDecoration textRendering transformOrigin underlinePosition underlineThickness unicodeBidi unicodeRange unitsPerEm vAlphabetic vHanging vIdeographic vMathematical vectorEffect vertAdvY vertOriginX vertOriginY wordSpacing writingMode xHeight'
    .split(' ')
    .map((n): [string, string] => [n, n.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)]),
  ['panose-1', 'panose-1'],
  ['xmlnsXlink', 'xmlns:xlink'],
]);

const styleNames = new Map<string, string>();
function styleAttribute(style: unknown): string {
  // (React throws for a string: it says so itself.)
  if (typeof style !== 'object') throw UNSUPPORTED;
  let out = '';
  for (const name in style) {
    if (!hasOwn.call(style, name)) continue;
    const value = (style as Props)[name];
    if (value == null || typeof value === 'boolean' || value === '') continue;
    let n: string;
    let v: string;
    if (name.startsWith('--')) {
      n = escape(name);
      v = escape(str(value).trim());
    } else {
      let cached = styleNames.get(name);
      if (cached === undefined) {
        cached = escape(name.replace(/([A-Z])/g, '-$1').toLowerCase().replace(/^ms-/, '-ms-'));
        styleNames.set(name, cached);
      }
      n = cached;
      v = typeof value === 'number' ? (value === 0 || UNITLESS.has(name) ? `${value}` : `${value}px`) : escape(str(value).trim());
    }
    out += out ? `;${n}:${v}` : ` style="${n}:${v}`;
  }
  return out ? `${out}"` : '';
}

const JAVASCRIPT_URL =
  /^[\u0000-\u001F ]*j[\r\n\t]*a[\r\n\t]*v[\r\n\t]*a[\r\n\t]*s[\r\n\t]*c[\r\n\t]*r[\r\n\t]*i[\r\n\t]*p[\r\n\t]*t[\r\n\t]*:/i;
function sanitizeUrl(url: string): string {
  // Only a URL that starts with a control character, a space or a "j" can be one.
  const c = url.charCodeAt(0);
  if (c > 32 && c !== 106 && c !== 74) return url;
  return JAVASCRIPT_URL.test(url) ? "javascript:throw new Error('React has blocked a javascript: URL as a security precaution.')" : url;
}

const isFnOrSymbol = (v: unknown) => typeof v === 'function' || typeof v === 'symbol';

function stringAttribute(name: string, value: unknown): string {
  return isFnOrSymbol(value) || typeof value === 'boolean' ? '' : ` ${name}="${escapeValue(value)}"`;
}

function booleanAttribute(name: string, value: unknown): string {
  return value && !isFnOrSymbol(value) ? ` ${name}=""` : '';
}

const BOOLEANS = new Set(
  'inert allowFullScreen async autoPlay controls default defer disabled disablePictureInPicture disableRemotePlayback formNoValidate hidden loop noModule noValidate open playsInline readOnly required reversed scoped seamless itemScope'.split(
    ' ',
  ),
);
const BOOLEANISH = new Set('contentEditable spellCheck draggable value autoReverse externalResourcesRequired focusable preserveAlpha'.split(' '));
const XML_NAMES = new Map([
  ['xlinkActuate', 'xlink:actuate'],
  ['xlinkArcrole', 'xlink:arcrole'],
  ['xlinkRole', 'xlink:role'],
  ['xlinkShow', 'xlink:show'],
  ['xlinkTitle', 'xlink:title'],
  ['xlinkType', 'xlink:type'],
  ['xmlBase', 'xml:base'],
  ['xmlLang', 'xml:lang'],
  ['xmlSpace', 'xml:space'],
]);

/** React's pushAttribute (`value` is not null or undefined). */
function attribute(name: string, value: unknown): string {
  const plain = PLAIN.get(name);
  if (plain !== undefined) return plain === null ? '' : plainAttribute(plain, value);
  switch (name) {
    case 'className':
      return stringAttribute('class', value);
    case 'tabIndex':
      return stringAttribute('tabindex', value);
    case 'dir':
    case 'role':
    case 'viewBox':
    case 'width':
    case 'height':
      return stringAttribute(name, value);
    case 'style':
      return styleAttribute(value);
    case 'src':
    case 'href':
    case 'action':
    case 'formAction':
      // (An empty src or href is left out; an empty action is kept.)
      if ((name === 'src' || name === 'href') && value === '') return '';
      if (value == null || isFnOrSymbol(value) || typeof value === 'boolean') return '';
      return ` ${name}="${escape(sanitizeUrl(str(value)))}"`;
    case 'defaultValue':
    case 'defaultChecked':
    case 'innerHTML':
    case 'suppressContentEditableWarning':
    case 'suppressHydrationWarning':
    case 'ref':
      return '';
    case 'autoFocus':
    case 'multiple':
    case 'muted':
      return booleanAttribute(name.toLowerCase(), value);
    case 'xlinkHref':
      if (isFnOrSymbol(value) || typeof value === 'boolean') return '';
      return ` xlink:href="${escape(sanitizeUrl(str(value)))}"`;
    case 'capture':
    case 'download':
      if (value === true) return ` ${name}=""`;
      return value !== false && !isFnOrSymbol(value) ? ` ${name}="${escapeValue(value)}"` : '';
    case 'cols':
    case 'rows':
    case 'size':
    case 'span':
      return !isFnOrSymbol(value) && !isNaN(value as number) && (value as number) >= 1 ? ` ${name}="${escapeValue(value)}"` : '';
    case 'rowSpan':
    case 'start':
      return isFnOrSymbol(value) || isNaN(value as number) ? '' : ` ${name}="${escapeValue(value)}"`;
  }
  if (BOOLEANS.has(name)) return booleanAttribute(name, value);
  if (BOOLEANISH.has(name)) return isFnOrSymbol(value) ? '' : ` ${name}="${escapeValue(value)}"`;
  const xml = XML_NAMES.get(name);
  if (xml) return stringAttribute(xml, value);
  // Any other name: written as its alias or itself, unless it is an event handler (on…) or not a
  // valid name (decided once per name).
  let attr: string | null = ALIASES.get(name) ?? name;
  if ((name.length > 2 && (name[0] === 'o' || name[0] === 'O') && (name[1] === 'n' || name[1] === 'N')) || !safeAttributeName(attr)) attr = null;
  PLAIN.set(name, attr);
  return attr === null ? '' : plainAttribute(attr, value);
}

/** Names of React's general rule, each with the attribute it writes (null: never written). */
const PLAIN = new Map<string, string | null>();

function plainAttribute(attr: string, value: unknown): string {
  switch (typeof value) {
    case 'string':
      return ` ${attr}="${escape(value)}"`;
    case 'function':
    case 'symbol':
      return '';
    case 'boolean': {
      // Booleans only for data- and aria- attributes.
      const prefix = attr.toLowerCase().slice(0, 5);
      if (prefix !== 'data-' && prefix !== 'aria-') return '';
    }
  }
  return ` ${attr}="${escapeValue(value)}"`;
}

/** `dangerouslySetInnerHTML`'s HTML (React's pushInnerHTML): children beside it are React's error. */
function innerHtml(html: unknown, children: unknown): string {
  if (html == null) return '';
  if (children != null || typeof html !== 'object' || !('__html' in html)) throw UNSUPPORTED;
  const inner = (html as { __html: unknown }).__html;
  return inner == null ? '' : str(inner);
}

/** `<title>`, `<style>`: one child (a second makes it empty, as in React), written as text. */
function onlyChild(children: unknown): unknown {
  return Array.isArray(children) ? (children.length < 2 ? children[0] : null) : children;
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

/** One render: the output in React's order (see `result`). */
class Writer {
  /**
   * Where elements go as they come: the root, or the head's content. Joined once at the end: a
   * string grown by `+=` is a tree of pieces that every later reader (the write thread's message)
   * must flatten, and each piece is an object for the collector.
   */
  out: string[] = [];
  /** `<html …>`, `<head …>`, `<body …>` once rendered (React's preamble). */
  html: string | undefined;
  head: string | undefined;
  body: string | undefined;
  charset = '';
  viewport = '';
  /** Images preloaded with ReactDOM's `preload`: high priority, the others, and their keys (each once). */
  highPreloads = '';
  bulkPreloads = '';
  imageKeys = new Set<string>();
  hoisted = '';
  /** The head's own content (React's preamble segment). */
  headContent = '';

  /** The document in React's order, after `prefix`, as one flat string. */
  result(prefix: string): string {
    let s = prefix;
    if (this.html !== undefined) s += this.html + (this.head ?? '<head>');
    else if (this.head !== undefined) s += this.head;
    s += this.charset + this.viewport + this.highPreloads + this.bulkPreloads + this.hoisted + this.headContent;
    if (this.html !== undefined || this.head !== undefined) s += '</head>';
    if (this.body !== undefined) s += this.body;
    const all = [s].concat(this.out);
    if (this.body !== undefined) all.push('</body>');
    if (this.html !== undefined) all.push('</html>');
    return all.join('');
  }

  node(node: unknown, format: Format): void {
    if (typeof node === 'string') {
      this.out.push(escape(node));
      return;
    }
    if (node === null || typeof node !== 'object') {
      if (typeof node === 'number' || typeof node === 'bigint') this.out.push(`${node}`);
      // (undefined, booleans, functions and symbols are nothing.)
      return;
    }
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) this.node(node[i], format);
      return;
    }
    const el = node as { $$typeof?: unknown; type: unknown; props: Props };
    if (el.$$typeof !== ELEMENT) throw UNSUPPORTED;
    const type = el.type;
    const props = el.props;
    if (typeof type === 'string') this.element(type, props, format);
    else if (typeof type === 'function') {
      if ((type as { prototype?: { isReactComponent?: unknown } }).prototype?.isReactComponent) throw UNSUPPORTED;
      this.node((type as (p: Props, s?: unknown) => unknown)(props, undefined), format);
    } else if (type === FRAGMENT) this.node(props.children, format);
    else throw UNSUPPORTED;
  }

  element(type: string, props: Props, format: Format): void {
    const child = childFormat(format, type, props);
    switch (type) {
      case 'html':
        if (format.mode !== ROOT) break;
        if (this.html !== undefined) throw UNSUPPORTED;
        this.html = this.start('html', props);
        this.children(child);
        return;
      case 'head': {
        if (format.mode >= BODY) break;
        if (this.head !== undefined) throw UNSUPPORTED;
        this.head = this.start('head', props);
        const outer = this.out;
        this.out = [];
        this.children(child);
        this.headContent += this.out.join('');
        this.out = outer;
        return;
      }
      case 'body': {
        if (format.mode >= BODY) break;
        if (this.body !== undefined) throw UNSUPPORTED;
        this.body = this.start('body', props);
        this.children(child);
        return;
      }
      case 'title':
      case 'meta':
      case 'link':
        if (format.mode === SVG || format.scope & IN_NOSCRIPT || props.itemProp != null) break;
        this.hoist(type, props);
        return;
      case 'script':
        // An async script with a source is a resource React writes once, in the head.
        if (typeof props.src === 'string' && props.src && props.async && !isFnOrSymbol(props.async) && !props.onLoad && !props.onError && format.mode !== SVG && !(format.scope & IN_NOSCRIPT) && props.itemProp == null) {
          throw UNSUPPORTED;
        }
        break;
      case 'style':
        if (format.mode !== SVG && !(format.scope & IN_NOSCRIPT) && props.itemProp == null && typeof props.precedence === 'string' && typeof props.href === 'string' && props.href !== '') {
          throw UNSUPPORTED;
        }
        break;
      case 'img':
        if (preloadsImage(props, format)) throw UNSUPPORTED;
        break;
    }
    this.out.push(this.open(type, props, format));
    const rest = this.rest;
    this.rest = undefined;
    // (React loses the children of an element inside the head that stays in head mode, a <div>
    // there: it renders them into a segment it never writes. Left to it.)
    if (format.mode === HEAD && child.mode === HEAD && rest != null) throw UNSUPPORTED;
    if (rest !== undefined) this.node(rest, child);
    // (`title`, `script` and `style` were written whole.)
    if (!VOID.has(type) && type !== 'title' && type !== 'script' && type !== 'style') this.out.push(`</${type}>`);
  }

  /** Children left to render after `open` (it writes text children itself, as React does). */
  private rest: unknown;

  private start(tag: string, props: Props): string {
    const s = openTag(tag) + attributes(props);
    this.rest = found.children;
    return `${s}>${innerHtml(found.inner, found.children)}`;
  }

  private children(format: Format): void {
    const children = this.rest;
    this.rest = undefined;
    if (children != null) this.node(children, format);
  }

  /** `<title>`, `<meta>`, `<link>` that React moves into the head (or to the start, with no head). */
  private hoist(type: string, props: Props): void {
    if (type === 'title') {
      this.hoisted += titleTag(props);
      return;
    }
    if (type === 'link') {
      const { rel, href } = props;
      if (typeof rel === 'string' && typeof href === 'string' && href !== '') {
        // A stylesheet with a precedence is a resource; with load handlers, React writes it in place.
        if (rel === 'stylesheet') {
          if (typeof props.precedence === 'string' && props.disabled == null && !props.onLoad && !props.onError) throw UNSUPPORTED;
          this.out.push(selfClosing('link', props));
          return;
        }
        if (props.onLoad || props.onError) {
          this.out.push(selfClosing('link', props));
          return;
        }
        this.hoisted += selfClosing('link', props);
        return;
      }
      this.out.push(selfClosing('link', props));
      return;
    }
    const tag = selfClosing('meta', props);
    if (typeof props.charSet === 'string') this.charset += tag;
    else if (props.name === 'viewport') this.viewport += tag;
    else this.hoisted += tag;
  }

  /** The start of an element in place (React's pushStartInstance); children still to render go to `rest`. */
  private open(type: string, props: Props, format: Format): string {
    switch (type) {
      case 'select': {
        // (Its value selects options: not an attribute.)
        const s = openTag(type) + attributes(props, SELECT_KEYS);
        this.rest = found.children;
        return `${s}>${innerHtml(found.inner, found.children)}`;
      }
      case 'option': {
        const s = openTag(type) + attributes(props, OPTION_KEYS);
        const { children, inner, taken } = found;
        let selected = '';
        // (Its value is an attribute too.)
        const value = props.value;
        if (format.selected != null) {
          const text = value != null ? str(value) : optionText(children);
          const chosen = format.selected;
          if (Array.isArray(chosen) ? chosen.some((v) => str(v) === text) : str(chosen) === text) selected = ' selected=""';
        } else if (taken.selected) selected = ' selected=""';
        this.rest = children;
        return `${s}${selected}>${innerHtml(inner, children)}`;
      }
      case 'textarea': {
        let s = openTag(type) + attributes(props, TEXTAREA_KEYS);
        const { children, inner, taken } = found;
        if (inner != null) throw UNSUPPORTED;
        let value = taken.value ?? taken.defaultValue ?? null;
        s += '>';
        if (children != null) {
          if (value != null || (Array.isArray(children) && children.length > 1)) throw UNSUPPORTED;
          if (typeof children === 'object' && !Array.isArray(children)) throw UNSUPPORTED;
          value = str(children);
        }
        if (typeof value === 'string' && value[0] === '\n') s += '\n';
        if (value !== null) s += escapeValue(str(value));
        this.rest = undefined;
        return s;
      }
      case 'input': {
        let s = openTag(type) + attributes(props, INPUT_KEYS);
        const { children, inner, taken } = found;
        if (children != null || inner != null) throw UNSUPPORTED;
        s += formAttributes(taken);
        if (taken.checked != null) s += booleanAttribute('checked', taken.checked);
        else if (taken.defaultChecked != null) s += booleanAttribute('checked', taken.defaultChecked);
        if (taken.value != null) s += attribute('value', taken.value);
        else if (taken.defaultValue != null) s += attribute('value', taken.defaultValue);
        this.rest = undefined;
        return `${s}/>`;
      }
      case 'button': {
        const s = openTag(type) + attributes(props, BUTTON_KEYS);
        const { children, inner, taken } = found;
        return this.textChild(`${s}${formAttributes(taken)}>${innerHtml(inner, children)}`, children);
      }
      case 'form': {
        let s = openTag(type) + attributes(props, FORM_KEYS);
        const { children, inner, taken } = found;
        // A function as the action is React's form actions: not static.
        if (typeof taken.action === 'function') throw UNSUPPORTED;
        for (const key of FORM_KEYS) if (taken[key] != null) s += attribute(key, taken[key]);
        return this.textChild(`${s}>${innerHtml(inner, children)}`, children);
      }
      case 'menuitem':
      case 'object':
      case 'listing':
      case 'pre':
        // (Rare, and each with rules of its own: React writes them.)
        throw UNSUPPORTED;
      case 'title':
        this.rest = undefined;
        return titleTag(props);
      case 'script': {
        let s = openTag(type) + attributes(props);
        const { children, inner } = found;
        s += `>${innerHtml(inner, children)}`;
        // (Only a string child is written: React leaves out any other.)
        if (typeof children === 'string') s += children.replace(/(<\/|<)(s)(cript)/gi, (_m, p: string, c: string, r: string) => `${p}${c === 's' ? '\\u0073' : '\\u0053'}${r}`);
        this.rest = undefined;
        return `${s}</script>`;
      }
      case 'style': {
        let s = `${openTag(type) + attributes(props)}>`;
        const { children, inner } = found;
        const only = onlyChild(children);
        if (only != null && !isFnOrSymbol(only)) {
          if (typeof only === 'object') throw UNSUPPORTED;
          s += str(only).replace(/(<\/|<)(s)(tyle)/gi, (_m, p: string, c: string, r: string) => `${p}${c === 's' ? '\\73 ' : '\\53 '}${r}`);
        }
        s += innerHtml(inner, children);
        this.rest = undefined;
        return `${s}</style>`;
      }
      case 'meta':
      case 'link':
      case 'img':
      case 'base':
      case 'area':
      case 'br':
      case 'col':
      case 'embed':
      case 'hr':
      case 'keygen':
      case 'param':
      case 'source':
      case 'track':
      case 'wbr':
        this.rest = undefined;
        return selfClosing(type, props);
    }
    if (type.includes('-') && !HYPHENATED_ELEMENTS.has(type)) {
      const s = openTag(type) + customAttributes(props);
      this.rest = found.children;
      return `${s}>${innerHtml(found.inner, found.children)}`;
    }
    // A generic element (React's pushStartGenericElement; `a` too, whose empty href it keeps).
    const s = openTag(type) + attributes(props, undefined, type === 'a');
    return this.textChild(`${s}>${innerHtml(found.inner, found.children)}`, found.children);
  }

  /** A string child is written at once (escaped); any other is left to render. */
  private textChild(start: string, children: unknown): string {
    if (typeof children === 'string') {
      this.rest = undefined;
      return start + escape(children);
    }
    this.rest = children;
    return start;
  }
}

/** Names with a hyphen that are not custom elements: React writes their attributes by its general rules. */
const HYPHENATED_ELEMENTS = new Set(['annotation-xml', 'color-profile', 'font-face', 'font-face-src', 'font-face-uri', 'font-face-format', 'font-face-name', 'missing-glyph']);

/** What `attributes` did not write: the children, the inner HTML and the keys it was told to take. */
const found: { children: unknown; inner: unknown; taken: Props } = { children: null, inner: null, taken: {} };

const NOTHING_TAKEN: Props = Object.freeze({});
const SELECT_KEYS: readonly string[] = ['value', 'defaultValue'];
const OPTION_KEYS: readonly string[] = ['selected'];
const TEXTAREA_KEYS: readonly string[] = ['value', 'defaultValue'];
const FORM_ACTION_KEYS: readonly string[] = ['formAction', 'formEncType', 'formMethod', 'formTarget'];
const INPUT_KEYS: readonly string[] = ['name', ...FORM_ACTION_KEYS, 'defaultChecked', 'defaultValue', 'checked', 'value'];
const BUTTON_KEYS: readonly string[] = ['name', ...FORM_ACTION_KEYS];
const FORM_KEYS: readonly string[] = ['action', 'encType', 'method', 'target'];

/**
 * The attributes of `props` in their order (React's rules, `attribute`), but for `children`,
 * `dangerouslySetInnerHTML` and the keys in `take`, which go to `found` (a null or undefined value
 * is no value). `emptyHref`: an empty href is written (on `<a>`).
 */
function attributes(props: Props, take?: readonly string[], emptyHref = false): string {
  let s = '';
  let children: unknown = null;
  let inner: unknown = null;
  const taken: Props = take ? {} : NOTHING_TAKEN;
  for (const key in props) {
    if (!hasOwn.call(props, key)) continue;
    const v = props[key];
    if (v == null) continue;
    if (key === 'children') children = v;
    else if (key === 'dangerouslySetInnerHTML') inner = v;
    else if (take?.includes(key)) taken[key] = v;
    else if (emptyHref && v === '' && key === 'href') s += ' href=""';
    else s += attribute(key, v);
  }
  found.children = children;
  found.inner = inner;
  found.taken = taken;
  return s;
}

/** A custom element's attributes: as given (no aliases), booleans as empty, objects left out. */
function customAttributes(props: Props): string {
  let s = '';
  let children: unknown = null;
  let inner: unknown = null;
  for (const key in props) {
    if (!hasOwn.call(props, key)) continue;
    const v = props[key];
    if (v == null) continue;
    switch (key) {
      case 'children':
        children = v;
        continue;
      case 'dangerouslySetInnerHTML':
        inner = v;
        continue;
      case 'style':
        s += styleAttribute(v);
        continue;
      case 'suppressContentEditableWarning':
      case 'suppressHydrationWarning':
      case 'ref':
        continue;
    }
    if (!safeAttributeName(key) || isFnOrSymbol(v) || v === false) continue;
    if (v !== true && typeof v === 'object') continue;
    s += ` ${key === 'className' ? 'class' : key}="${v === true ? '' : escapeValue(v)}"`;
  }
  found.children = children;
  found.inner = inner;
  return s;
}

/** React's flattenOptionChildren for an option without a value: its text children joined. */
function optionText(children: unknown): string {
  let text = '';
  const add = (c: unknown): void => {
    if (Array.isArray(c)) for (const x of c) add(x);
    else if (c != null && typeof c !== 'boolean') {
      // (An element's text would be "[object Object]" in React: left to it.)
      if (typeof c === 'object' || isFnOrSymbol(c)) throw UNSUPPORTED;
      text += str(c);
    }
  };
  add(children);
  return text;
}

/** React's pushFormActionAttribute with no function action: the name, then the form's overrides. */
function formAttributes(taken: Props): string {
  if (typeof taken.formAction === 'function') throw UNSUPPORTED;
  let s = '';
  if (taken.name != null) s += attribute('name', taken.name);
  for (const key of FORM_ACTION_KEYS) if (taken[key] != null) s += attribute(key, taken[key]);
  return s;
}

function selfClosing(tag: string, props: Props): string {
  const s = openTag(tag) + attributes(props);
  if (found.children != null || found.inner != null) throw UNSUPPORTED;
  return `${s}/>`;
}

function titleTag(props: Props): string {
  let s = `<title${attributes(props)}>`;
  const { children, inner } = found;
  const only = onlyChild(children);
  if (only != null && !isFnOrSymbol(only)) {
    if (typeof only === 'object') throw UNSUPPORTED;
    s += escapeValue(str(only));
  }
  return `${s}${innerHtml(inner, children)}</title>`;
}

/** Whether React would preload this image from the head (an eager image outside `<picture>` and `<noscript>`). */
function preloadsImage(props: Props, format: Format): boolean {
  const { src, srcSet } = props;
  if (props.loading === 'lazy' || (!src && !srcSet)) return false;
  if ((typeof src !== 'string' && src != null) || (typeof srcSet !== 'string' && srcSet != null)) return false;
  if (props.fetchPriority === 'low' || format.scope & (IN_NOSCRIPT | IN_PICTURE)) return false;
  const data = (s: unknown) => typeof s === 'string' && s[4] === ':' && s.slice(0, 4).toLowerCase() === 'data';
  return !data(src) && !data(srcSet);
}

type Internals = { H: unknown };
type DomInternals = { d: unknown };
let reactInternals: Internals | undefined;
let domInternals: DomInternals | undefined;

/**
 * Set when a fast render met a hook or a resource call it leaves to React. It throws `Unsupported`
 * there; a template that catches it (a try around a hook) still gets its tree rendered by React.
 */
let refused = false;
function refuse(): never {
  refused = true;
  throw UNSUPPORTED;
}

/** Any hook during a fast render: React renders that tree. */
const REFUSE = new Proxy(
  {},
  {
    get: refuse,
  },
);

/** The render under way (ReactDOM's `preload` reaches it through the dispatcher below). */
let current: Writer | undefined;

/**
 * ReactDOM's resource calls during a fast render: `preload(href, { as: 'image', … })` as React's
 * server renderer writes it (a `<link rel="preload">` in the head, each image once); any other
 * (preinit, preconnect, other kinds) makes React render the tree.
 */
function preloadImage(href: unknown, as: unknown, options?: Props): void {
  const w = current;
  if (!w || as !== 'image') refuse();
  if (!href) return;
  const srcSet = options?.imageSrcSet;
  const key = srcSet ? `${srcSet as string}\n${(options?.imageSizes as string) || ''}` : str(href);
  if (w.imageKeys.has(key)) return;
  w.imageKeys.add(key);
  const tag = selfClosing('link', { rel: 'preload', href: srcSet ? undefined : href, as, ...options });
  if (options?.fetchPriority === 'high') w.highPreloads += tag;
  else w.bulkPreloads += tag;
}
const RESOURCES = new Proxy(
  {},
  {
    get(_target, key) {
      if (key === 'L') return preloadImage;
      return refuse();
    },
  },
);

let react: ((node: unknown) => string) | undefined;
/** React's server renderer's resource dispatcher, as it installed it. */
let serverDispatcher: unknown;

/**
 * React's and ReactDOM's shared internals (the hooks' and the resources' dispatchers), and React's
 * own renderer (the legacy, synchronous one alone, as react-dom/server's index picks it), once per
 * thread. The renderer is loaded here, outside any render: loading it installs its resource
 * dispatcher over the one it finds, which must not be a fast render's.
 */
function internals(): void {
  if (react) return;
  reactInternals = (requireCjs('react') as Record<string, unknown>).__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE as Internals;
  const dom = (requireCjs('react-dom') as Record<string, unknown>).__DOM_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE as DomInternals | undefined;
  const dir = path.dirname(requireCjs.resolve('react-dom/package.json'));
  const mode = process.env.NODE_ENV === 'production' ? 'production' : 'development';
  react = (requireCjs(path.join(dir, 'cjs', `react-dom-server-legacy.node.${mode}.js`)) as typeof import('react-dom/server')).renderToStaticMarkup as (node: unknown) => string;
  if (dom && typeof dom === 'object' && 'd' in dom) {
    domInternals = dom;
    serverDispatcher = dom.d;
  }
}

/** React's renderer; inside a fast render (a piece), its preloads go to its own request, not the fast one. */
function reactRender(node: unknown): string {
  internals();
  const d = domInternals;
  if (!d || d.d !== RESOURCES) return react!(node);
  d.d = serverDispatcher;
  try {
    return react!(node);
  } finally {
    d.d = RESOURCES;
  }
}

/** Trees React rendered since the process started (tests read it: a page that falls back is slow, not wrong). */
export const fallbacks = { count: 0 };

/**
 * Whether a fast render that threw leaves the tree to React: it met something only React writes,
 * a component suspended (React names that), or the tree is deeper than this renderer's stack
 * (React's own goes deeper).
 */
function leftToReact(e: unknown): boolean {
  if (e === UNSUPPORTED) return true;
  if (typeof e === 'object' && e !== null && typeof (e as { then?: unknown }).then === 'function') return true;
  return e instanceof RangeError && e.message.includes('call stack');
}

/**
 * A tree of React elements as React's `renderToStaticMarkup` writes it, after `prefix` (one flat
 * string: no copy of the page to put a doctype before it). `engine: 'react'` renders
 * with React itself: the tests' reference, and every render's with SITE_TEST_RENDERER=react.
 *
 * A tree the fast renderer leaves to React has had its components called up to that point: React
 * calls them again (a template's side effects, such as a counter, run twice for it).
 */
export function renderStaticMarkup(node: unknown, prefix = '', engine: 'fast' | 'react' = process.env.SITE_TEST_RENDERER === 'react' ? 'react' : 'fast'): string {
  if (engine === 'fast') {
    internals();
    const r = reactInternals;
    const d = domInternals;
    // (Without them, a hook could not be told from a bug: React renders everything.)
    if (r && typeof r === 'object' && 'H' in r && d) {
      const hooks = r.H;
      const dom = d.d;
      const outer = current;
      const outerRefused = refused;
      refused = false;
      r.H = REFUSE;
      d.d = RESOURCES;
      try {
        const w = (current = new Writer());
        w.node(node, ROOT_FORMAT);
        if (!refused) return w.result(prefix);
      } catch (e) {
        if (!leftToReact(e)) throw e;
      } finally {
        r.H = hooks;
        d.d = dom;
        current = outer;
        refused = outerRefused;
      }
      fallbacks.count++;
    }
  }
  return prefix + reactRender(node);
}
