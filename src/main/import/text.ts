/** Text helpers for importers: tag lists and HTML bodies. */

/**
 * Tags as written in the sources: Stack Exchange `<a><b>` or `|a|b|`, a JSON array, or a
 * whitespace-separated string. Empty tags are dropped; order kept; duplicates removed.
 */
export function parseTags(raw: unknown): string[] {
  // Stack Exchange's `<a><b>` as dumps write it (no whitespace, no empty tag): the tags as they are.
  if (typeof raw === 'string' && SE_TAGS.test(raw)) {
    const tags = raw.slice(1, -1).split('><');
    const once = new Set(tags);
    return once.size === tags.length ? tags : [...once];
  }
  let out: string[];
  if (Array.isArray(raw)) out = raw.map((t) => String(t).trim());
  else if (typeof raw !== 'string') return [];
  else {
    const s = raw.trim();
    if (/^(<[^<>]*>)+$/.test(s)) out = s.slice(1, -1).split('><');
    else if (s.length > 1 && s.startsWith('|') && s.endsWith('|')) out = s.slice(1, -1).split('|');
    else out = s.split(/\s+/);
  }
  // Tags are stored space-separated, so a tag cannot hold whitespace.
  return [...new Set(out.map((t) => t.trim().replace(/\s+/g, '-')).filter(Boolean))];
}

/** `<a><b>` with no whitespace and no empty tag: what parseTags' general path leaves as it is. */
const SE_TAGS = /^(?:<[^<>\s]+>)+$/;

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', hellip: '…',
  lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', bull: '•', middot: '·',
  copy: '©', reg: '®', trade: '™', deg: '°', plusmn: '±', times: '×', divide: '÷', micro: 'µ',
  para: '¶', sect: '§', euro: '€', pound: '£', yen: '¥', cent: '¢', larr: '←', rarr: '→', uarr: '↑',
  darr: '↓', harr: '↔', rArr: '⇒', lArr: '⇐', hArr: '⇔', le: '≤', ge: '≥', ne: '≠', asymp: '≈',
  equiv: '≡', infin: '∞', sum: '∑', prod: '∏', radic: '√', forall: '∀', exist: '∃', isin: '∈',
  notin: '∉', sub: '⊂', sup: '⊃', sube: '⊆', supe: '⊇', cap: '∩', cup: '∪', and: '∧', or: '∨',
  not: '¬', empty: '∅', nabla: '∇', part: '∂', alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ',
  epsilon: 'ε', lambda: 'λ', mu: 'μ', pi: 'π', sigma: 'σ', tau: 'τ', phi: 'φ', omega: 'ω',
  Omega: 'Ω', Sigma: 'Σ', Delta: 'Δ', shy: '', zwj: '', zwnj: '',
};

// HTML 4 names of U+00A0 … U+00FF, in code point order.
const LATIN1 =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para middot ' +
  'cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml ' +
  'Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig ' +
  'agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ' +
  'ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml';
LATIN1.split(' ').forEach((name, i) => {
  NAMED_ENTITIES[name] ??= String.fromCharCode(0xa0 + i);
});

/** NAMED_ENTITIES as a map: a name like `constructor` is no entity (an object's inherited members are not). */
const NAMED = new Map(Object.entries(NAMED_ENTITIES));

/** Decodes HTML character references (numeric, and the common named ones; unknown ones are kept). */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});?/g, (m, e: string) => {
    if (e[0] === '#') return codePointText(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return NAMED.get(e) ?? m;
  });
}

/** The text of a numeric character reference: U+FFFD for 0, a surrogate or past U+10FFFF. */
function codePointText(cp: number): string {
  if (!Number.isFinite(cp) || cp <= 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return '\uFFFD';
  return String.fromCodePoint(cp);
}

/** Inline elements: removing their tags must not split a word (`foo<em>bar</em>` → `foobar`). */
const INLINE = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'del', 'dfn', 'em', 'i', 'ins', 'kbd', 'mark', 'q', 's', 'samp',
  'small', 'span', 'strike', 'strong', 'sub', 'sup', 'tt', 'u', 'var',
]);

/**
 * HTML (a Stack Exchange post body) to plain text: comments, script and style dropped, tags
 * removed (block tags and `<br>` become a space, inline tags nothing), the text of code blocks
 * kept, character references decoded, whitespace collapsed to single spaces.
 */
export function htmlToText(html: string): string {
  let s = html;
  if (s.includes('<!--')) s = s.replace(/<!--[\s\S]*?-->/g, ' ');
  if (mayHoldScriptOrStyle(s) && SCRIPT_OR_STYLE.test(s)) s = s.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ');
  return collapseWhitespace(decodeEntities(stripTags(s)));
}

/** False when no `<` is followed by `sc` or `st` in any case (then SCRIPT_OR_STYLE cannot match): cheaper than the regex. */
function mayHoldScriptOrStyle(s: string): boolean {
  for (let i = s.indexOf('<'); i >= 0; i = s.indexOf('<', i + 1)) {
    if ((s.charCodeAt(i + 1) | 32) !== 115) continue;
    const c = s.charCodeAt(i + 2) | 32;
    if (c === 99 || c === 116) return true;
  }
  return false;
}

/**
 * `s.replace(/\s+/g, ' ').trim()`, faster: only runs of whitespace other than one plain space are
 * replaced (a lone space, the usual case, is no match to replace).
 */
export function collapseWhitespace(s: string): string {
  // A run to replace starts with a space followed by more whitespace, or with other whitespace.
  return s.replace(/ \s+|[^\S ]\s*/g, ' ').trim();
}

const SCRIPT_OR_STYLE = /<(?:script|style)/i;

const isAlpha = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isAlnum = (c: number): boolean => isAlpha(c) || (c >= 48 && c <= 57);

/**
 * Removes tags as `s.replace(/<\/?([A-Za-z][A-Za-z0-9]*)\b[^>]*>/g, …)` would (inline tags → '',
 * others → ' '), scanning with indexOf instead of a regex and a callback per tag.
 */
function stripTags(s: string): string {
  let out = '';
  let last = 0;
  for (let i = s.indexOf('<'); i >= 0; ) {
    let j = i + 1;
    if (s.charCodeAt(j) === 47 /* / */) j++;
    const start = j;
    if (isAlpha(s.charCodeAt(j))) {
      j++;
      while (isAlnum(s.charCodeAt(j))) j++;
      // \b after the name: the next character is not a word character ('_' is the only one left).
      if (s.charCodeAt(j) !== 95 /* _ */) {
        const gt = s.indexOf('>', j);
        // No '>' after this tag: none after any later '<' either.
        if (gt < 0) break;
        out += s.slice(last, i) + (INLINE.has(s.slice(start, j).toLowerCase()) ? '' : ' ');
        last = gt + 1;
        i = s.indexOf('<', last);
        continue;
      }
    }
    i = s.indexOf('<', i + 1);
  }
  return last === 0 ? s : out + s.slice(last);
}

/**
 * An id a JSON file gives as a number, as text — or null when the number cannot be the id the file
 * wrote: above 2^53 JSON.parse keeps only about 16 digits (12345678901234567891 reads as
 * 12345678901234567000, and two such ids can become one), and a fraction is no id.
 */
export function numericId(v: number): string | null {
  return Number.isSafeInteger(v) ? String(v) : null;
}

/** The error for a number numericId refuses, saying to write the id as a string. */
export function numericIdProblem(field: string, v: number): string {
  return Number.isInteger(v)
    ? `${field} is a number too large to read exactly: it reads as ${String(v)} (JSON numbers above 2^53 lose their last digits, so two ids can become one); write it as a string ("${field}": "…")`
    : `${field} ${String(v)} is not a whole number: write the id as a string ("${field}": "…")`;
}
