// HTML mail → plain text for an alert's description, when a mail has no text part. One forward pass over the input
// (every search starts where the previous one ended), so a hostile part full of unclosed "<", "<!--" or "<script"
// costs linear time; nothing is rendered or fetched, and the result is only ever shown as text.

const SKIPPED = new Set(['script', 'style', 'head', 'title', 'template', 'noscript', 'svg', 'object', 'iframe']);
const BLOCKS = new Set([
  'p', 'div', 'table', 'tr', 'thead', 'tbody', 'tfoot', 'ul', 'ol', 'dl', 'dt', 'dd', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'blockquote', 'pre', 'section', 'article', 'header', 'footer', 'main', 'nav', 'aside', 'form', 'fieldset', 'address',
  'center', 'figure', 'figcaption', 'caption', 'body', 'html',
]);
const CELLS = new Set(['td', 'th']);

const ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', hellip: '…', copy: '©', reg: '®',
  trade: '™', euro: '€', pound: '£', laquo: '«', raquo: '»', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', bull: '•',
  middot: '·', deg: '°', times: '×', shy: '', zwnj: '', zwj: '', ensp: ' ', emsp: ' ', thinsp: ' ',
};

/** Character references (named ones from a short list, any numeric one); unknown or invalid ones stay as written. */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});/g, (whole, ref: string) => {
    if (ref[0] !== '#') return ENTITIES[ref] ?? ENTITIES[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    if (!code || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
    return String.fromCodePoint(code);
  });
}

/**
 * Where the tag that opens at `lt` ends (the index of its ">"), or -1 when it never does. A quote opens a value only
 * right after "=", as in a browser, so a stray apostrophe in an unquoted value does not swallow the rest.
 */
function tagEnd(html: string, lt: number): number {
  let quote = '';
  let last = '';
  for (let i = lt + 1; i < html.length; i++) {
    const c = html[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if ((c === '"' || c === "'") && last === '=') quote = c;
    else if (c === '>') return i;
    if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') last = c;
  }
  return -1;
}

const TAG_NAME = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)/y;
const HREF = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;

/** Plain text of an HTML document: blocks and `<br>` become line breaks, list items "- ", links "text (url)". */
export function htmlToText(html: string, maxChars = 200_000): string {
  const lower = html.toLowerCase();
  const out: string[] = [];
  let length = 0;
  let pre = 0;
  const hrefs: Array<string | null> = [];
  const emit = (s: string) => {
    out.push(s);
    length += s.length;
  };
  const text = (raw: string) => emit(decodeEntities(pre ? raw : raw.replace(/\s+/g, ' ')));
  let i = 0;
  while (i < html.length && length < maxChars) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      text(html.slice(i));
      break;
    }
    if (lt > i) text(html.slice(i, lt));
    if (html.startsWith('<!--', lt)) {
      const close = html.indexOf('-->', lt + 4);
      i = close < 0 ? html.length : close + 3;
      continue;
    }
    if (html[lt + 1] === '!' || html[lt + 1] === '?') {
      const close = html.indexOf('>', lt);
      i = close < 0 ? html.length : close + 1;
      continue;
    }
    TAG_NAME.lastIndex = lt;
    const m = TAG_NAME.exec(html);
    if (!m) {
      text('<');
      i = lt + 1;
      continue;
    }
    const end = tagEnd(html, lt);
    if (end < 0) break;
    const closing = m[1] === '/';
    const name = m[2].toLowerCase();
    i = end + 1;
    if (!closing && SKIPPED.has(name)) {
      // Up to its closing tag; searched in the lower-cased copy, from here on, so each byte is looked at once.
      const close = lower.indexOf(`</${name}`, i);
      if (close < 0) break;
      const after = tagEnd(html, close);
      i = after < 0 ? html.length : after + 1;
      continue;
    }
    if (name === 'br') emit('\n');
    else if (name === 'hr') emit('\n----------\n');
    else if (name === 'li') emit(closing ? '' : '\n- ');
    else if (CELLS.has(name)) emit(closing ? '  ' : '');
    else if (BLOCKS.has(name)) {
      if (name === 'pre') pre = Math.max(0, pre + (closing ? -1 : 1));
      emit('\n');
    } else if (name === 'a') {
      if (!closing) {
        const href = HREF.exec(html.slice(lt, end));
        const url = href ? decodeEntities(href[1] ?? href[2] ?? href[3] ?? '').trim() : '';
        hrefs.push(/^https?:\/\//i.test(url) ? url : null);
      } else {
        const url = hrefs.pop();
        if (url) emit(` (${url})`);
      }
    }
  }
  return out
    .join('')
    .slice(0, maxChars)
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
