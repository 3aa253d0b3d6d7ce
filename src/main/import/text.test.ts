/**
 * The text helpers' shortcuts (htmlToText's cheap check before the script/style regex, parseTags'
 * path for Stack Exchange's `<a><b>`) against the plain regex definitions (kept here as the
 * reference): the same output on random HTML-like strings made of the characters that matter
 * (references, whitespace of every kind, tags, comments, script) and on every body and tag list
 * of the real Stack Exchange dump in datasets/.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeEntities, htmlToText, parseTags } from './text';
import { mulberry32 } from '../stats/random';
import { RowScanner } from './xml-rows';

const root = path.resolve(import.meta.dirname, '../../..');


function referenceParseTags(raw: string): string[] {
  const s = raw.trim();
  let out: string[];
  if (/^(<[^<>]*>)+$/.test(s)) out = s.slice(1, -1).split('><');
  else if (s.length > 1 && s.startsWith('|') && s.endsWith('|')) out = s.slice(1, -1).split('|');
  else out = s.split(/\s+/);
  return [...new Set(out.map((t) => t.trim().replace(/\s+/g, '-')).filter(Boolean))];
}

/** htmlToText as regexes: comments, script/style, tags (inline → '', others → ' '), then references and whitespace. */
const INLINE = /^(?:a|abbr|b|bdi|bdo|cite|code|del|dfn|em|i|ins|kbd|mark|q|s|samp|small|span|strike|strong|sub|sup|tt|u|var)$/i;
function referenceHtmlToText(html: string): string {
  const s = html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<\/?([A-Za-z][A-Za-z0-9]*)\b[^>]*>/g, (_m, name: string) => (INLINE.test(name) ? '' : ' '));
  return decodeEntities(s).replace(/\s+/g, ' ').trim();
}

const PIECES = [
  '&', '&', '#', '#x', '#X', ';', ';', 'amp', 'lt', 'gt', 'nbsp', 'shy', 'eacute', 'constructor', 'toString', 'x', 'A', 'f', '0', '1', '9', '12', '65',
  '128512', '1114112', '10', '32', '160', '0000001', '12345678', 'd800', 'ffff', 'a'.repeat(33), ' ', ' ', '  ', '\t', '\n', '\r\n', '\u000b', '\u000c',
  '\u00a0', '\u1680', '\u2000', '\u200a', '\u200b', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff', '\u0085', '\u180e', 'é', '😀', 'word',
  '<', '>', '/', '<p>', '</p>', '<b>', '</B>', '<br/>', '<em>', '<_', '<p_x>', '<!--', '-->', '<script>', '</script >', '<STYLE a>', '</style>', '<code>',
];

function randomText(rnd: () => number, pieces: number): string {
  let s = '';
  for (let i = 0; i < pieces; i++) s += PIECES[Math.floor(rnd() * PIECES.length)];
  return s;
}

describe('decodeEntities', () => {
  it('keeps a name that is only an inherited member of an object', () => {
    expect(decodeEntities('&constructor; &toString; &hasOwnProperty &valueOf;')).toBe('&constructor; &toString; &hasOwnProperty &valueOf;');
  });
});

describe('htmlToText', () => {
  it('matches the regex definition on random HTML-like strings', () => {
    const rnd = mulberry32(27);
    for (let k = 0; k < 20_000; k++) {
      const s = randomText(rnd, 1 + Math.floor(rnd() * 30));
      expect(htmlToText(s), JSON.stringify(s)).toBe(referenceHtmlToText(s));
    }
  });

  it('matches the regex definition on every question and answer body of the real dump', () => {
    const xml = gunzipSync(readFileSync(path.join(root, 'datasets/stackexchange-cstheory-meta/Posts.xml.gz'))).toString('utf8');
    const bodies: string[] = [];
    const tags: string[] = [];
    const scanner = new RowScanner((a) => {
      if (a.Body !== undefined) bodies.push(a.Body);
      if (a.Tags !== undefined) tags.push(a.Tags);
    });
    scanner.scan(xml, xml.indexOf('<posts>') + '<posts>'.length, 1);
    expect(bodies.length).toBeGreaterThan(1000);
    let differ = 0;
    for (const b of bodies) if (htmlToText(b) !== referenceHtmlToText(b)) differ++;
    expect(differ).toBe(0);
    expect(tags.length).toBeGreaterThan(500);
    for (const t of tags) expect(parseTags(t)).toEqual(referenceParseTags(t));
  });
});

describe('parseTags', () => {
  it("takes Stack Exchange's <a><b> as it is and everything else through the general path", () => {
    const rnd = mulberry32(28);
    const parts = ['<', '>', '<a>', '<b-c>', '<a>', '|', 'x', ' ', '\u00a0', '\t', '<>', 'two words', '<c d>'];
    for (let k = 0; k < 5_000; k++) {
      let s = '';
      for (let i = 1 + Math.floor(rnd() * 8); i > 0; i--) s += parts[Math.floor(rnd() * parts.length)];
      expect(parseTags(s), JSON.stringify(s)).toEqual(referenceParseTags(s));
    }
  });
});
