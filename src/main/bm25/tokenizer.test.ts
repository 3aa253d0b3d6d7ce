import { describe, expect, it } from 'vitest';
import { ENGLISH_STOP_WORDS, Tokenizer, tokenize } from './tokenizer';
import { tokenizeForHighlight } from './highlight';

const none = new Tokenizer({ stopWords: 'none' });

describe('tokenizer', () => {
  it('lowercases and splits on non-word characters', () => {
    expect(none.tokenize('Hello, World! How-are you?')).toEqual(['hello', 'world', 'how', 'are', 'you']);
  });

  it('gives nothing for empty, whitespace or punctuation-only text', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize('   \n\t ')).toEqual([]);
    expect(tokenize('?!... --- ;;')).toEqual([]);
  });

  it('keeps numbers, decimals and thousands separators', () => {
    expect(none.tokenize('In 2013 it cost 3.14 or 1,000 QR (2, 3)')).toEqual(['in', '2013', 'it', 'cost', '3.14', 'or', '1,000', 'qr', '2', '3']);
    expect(none.tokenize('v1.2.3 and abc123')).toEqual(['v1.2.3', 'and', 'abc123']);
  });

  it('joins dotted names and contractions, strips possessive s, leading/trailing dots', () => {
    expect(none.tokenize('node.js and ASP.NET, e.g. .net')).toEqual(['node.js', 'and', 'asp.net', 'e.g', 'net']);
    expect(none.tokenize("don't worry, it's John's car")).toEqual(["don't", 'worry', 'it', 'john', 'car']);
    // ’ stays as it is (Lucene does not normalise it); possessive ’s and ＇s go too
    expect(none.tokenize('don\u2019t user\u2019s USER\uff07S')).toEqual(['don\u2019t', 'user', 'user']);
    expect(none.tokenize("'quoted' end.")).toEqual(['quoted', 'end']);
  });

  it('splits where Lucene\'s StandardTokenizer splits (UAX #29): c++, c#, fig3.png, jan.3; keeps 20;000 and url:https', () => {
    expect(none.tokenize('C++ vs C# vs F#, g++ and Notepad++.')).toEqual(['c', 'vs', 'c', 'vs', 'f', 'g', 'and', 'notepad']);
    expect(none.tokenize('a+b c++11 x+++ #tag issue#1 a+')).toEqual(['a', 'b', 'c', '11', 'x', 'tag', 'issue', '1', 'a']);
    expect(none.tokenize("area51.stackexchange.com fig3.png jan.3 20;000 url:https soda'06 x² ___ a__b")).toEqual([
      'area51', 'stackexchange.com', 'fig3', 'png', 'jan', '3', '20;000', 'url:https', 'soda', '06', 'x', 'a__b',
    ]);
  });

  it('is Unicode-aware: letters, marks and digits of any script', () => {
    expect(none.tokenize('Ärger über Straße ÉCOLE')).toEqual(['ärger', 'über', 'straße', 'école']);
    expect(none.tokenize('Привет, мир! Καλημέρα κόσμε')).toEqual(['привет', 'мир', 'καλημέρα', 'κόσμε']);
    expect(none.tokenize('مرحبا بالعالم ٣٤')).toEqual(['مرحبا', 'بالعالم', '٣٤']);
    expect(none.tokenize('नमस्ते दुनिया')).toEqual(['नमस्ते', 'दुनिया']); // combining vowel signs stay inside
    expect(none.tokenize('snake_case __init__')).toEqual(['snake_case', '__init__']);
  });

  it('splits Han and Hiragana into single characters, keeps Katakana and Hangul runs', () => {
    expect(none.tokenize('東京タワーへ行く')).toEqual(['東', '京', 'タワー', 'へ', '行', 'く']);
    expect(none.tokenize('한국어 텍스트')).toEqual(['한국어', '텍스트']);
    expect(none.tokenize('𠮷野家 ok')).toEqual(['𠮷', '野', '家', 'ok']); // astral Han
  });

  it('handles astral letters, emoji (also text-style symbols) and lone surrogates', () => {
    expect(none.tokenize('𝐀𝐁 😀 x\uD800y')).toEqual(['𝐀𝐁', '😀', 'x', 'y']);
    expect(none.tokenizeWithTypes('Xeon™ ♦ 👍🏽 🇶🇦 1️⃣ # *')).toEqual([
      ['xeon', '<ALPHANUM>'], ['™', '<EMOJI>'], ['♦', '<EMOJI>'], ['👍🏽', '<EMOJI>'], ['🇶🇦', '<EMOJI>'], ['1️⃣', '<EMOJI>'],
    ]);
  });

  it('lowercases per character like Java (no final sigma, dotted capital I to i)', () => {
    expect(none.tokenize('ΣΟΦΟΣ İSTANBUL')).toEqual(['σοφοσ', 'istanbul']);
  });

  it('removes English stop words by default, none or a custom list on request', () => {
    expect(tokenize('This is the best bank in Doha and it is open')).toEqual(['best', 'bank', 'doha', 'open']);
    expect(new Tokenizer({ stopWords: 'none' }).tokenize('To be or not')).toEqual(['to', 'be', 'or', 'not']);
    expect(new Tokenizer({ stopWords: ['Bank', 'doha'] }).tokenize('The best bank in Doha')).toEqual(['the', 'best', 'in']);
    expect(ENGLISH_STOP_WORDS).toHaveLength(33);
  });

  it('cuts tokens longer than maxTokenLength (255 by default) as Lucene does', () => {
    const t = new Tokenizer({ maxTokenLength: 5 });
    expect(t.tokenize('short toolongword ok')).toEqual(['short', 'toolo', 'ngwor', 'd', 'ok']);
    // the longest valid token within the limit: the ' cannot end a token, so "s" starts the next
    expect(new Tokenizer({ analyzer: 'lucene-standard' }).tokenize('b'.repeat(254) + "'s")).toEqual(['b'.repeat(254), 's']);
    expect(new Tokenizer().tokenize('z'.repeat(600)).map((x) => x.length)).toEqual([255, 255, 90]);
    expect(() => new Tokenizer({ maxTokenLength: 0 })).toThrow();
  });

  it('names its analyzer in the signature; Porter stemming with lucene-english', () => {
    const english = new Tokenizer({ analyzer: 'lucene-english' });
    expect(english.tokenize("The servers' running, generalizations and hopping")).toEqual(['server', 'run', 'gener', 'hop']);
    expect(new Tokenizer({ analyzer: 'lucene-standard' }).tokenize("The user's car")).toEqual(['the', "user's", 'car']);
    expect(new Set([new Tokenizer().signature, english.signature, new Tokenizer({ analyzer: 'lucene-standard' }).signature]).size).toBe(3);
    expect(() => new Tokenizer({ analyzer: 'nope' as never })).toThrow(/unknown analyzer/);
  });

  it('is deterministic and appends to a given array', () => {
    const text = 'Same text, same tokens: node.js C++ 3.14 Straße';
    expect(tokenize(text)).toEqual(tokenize(text));
    const out = ['x'];
    none.tokenize('a b', out);
    expect(out).toEqual(['x', 'a', 'b']);
  });

  it('has a signature that changes with the settings', () => {
    expect(new Tokenizer().signature).toBe(new Tokenizer({ stopWords: 'english' }).signature);
    expect(new Tokenizer().signature).not.toBe(new Tokenizer({ stopWords: 'none' }).signature);
    expect(new Tokenizer({ stopWords: ['b', 'a'] }).signature).toBe(new Tokenizer({ stopWords: ['a', 'b', 'A'] }).signature);
  });

  it('tokenizeForHighlight uses the index rules without function words', () => {
    expect(tokenizeForHighlight('The C++ compiler')).toEqual(['c', 'compiler']); // Lucene's tokens: c++ gives c
    expect(tokenizeForHighlight("I don't know how long I can use my International Driver's license? I'm here")).toEqual(['long', 'international', 'driver', 'license']);
  });
});
