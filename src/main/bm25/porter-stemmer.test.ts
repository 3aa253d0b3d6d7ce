import { describe, expect, it } from 'vitest';
import { porterStem } from './porter-stemmer';

// Porter's 1980 paper examples, plus the reference implementation's two departures (-bli, -logi),
// which Lucene's PorterStemmer keeps. (Whole corpora are checked against Lucene through the
// lucene-english fixtures: word-breaks.test.ts, lucene-parity.test.ts.)
const CASES: Array<[string, string]> = [
  ['caresses', 'caress'], ['ponies', 'poni'], ['ties', 'ti'], ['caress', 'caress'], ['cats', 'cat'],
  ['feed', 'feed'], ['agreed', 'agre'], ['plastered', 'plaster'], ['bled', 'bled'], ['motoring', 'motor'], ['sing', 'sing'],
  ['conflated', 'conflat'], ['troubled', 'troubl'], ['sized', 'size'], ['hopping', 'hop'], ['tanned', 'tan'], ['falling', 'fall'],
  ['hissing', 'hiss'], ['fizzed', 'fizz'], ['failing', 'fail'], ['filing', 'file'], ['happy', 'happi'], ['sky', 'sky'],
  ['relational', 'relat'], ['conditional', 'condit'], ['rational', 'ration'], ['valenci', 'valenc'], ['digitizer', 'digit'],
  ['conformabli', 'conform'], ['radicalli', 'radic'], ['differentli', 'differ'], ['vileli', 'vile'], ['analogousli', 'analog'],
  ['vietnamization', 'vietnam'], ['predication', 'predic'], ['operator', 'oper'], ['feudalism', 'feudal'], ['decisiveness', 'decis'],
  ['hopefulness', 'hope'], ['callousness', 'callous'], ['formaliti', 'formal'], ['sensitiviti', 'sensit'], ['sensibiliti', 'sensibl'],
  ['triplicate', 'triplic'], ['formative', 'form'], ['formalize', 'formal'], ['electriciti', 'electr'], ['electrical', 'electr'],
  ['hopeful', 'hope'], ['goodness', 'good'], ['revival', 'reviv'], ['allowance', 'allow'], ['inference', 'infer'], ['airliner', 'airlin'],
  ['gyroscopic', 'gyroscop'], ['adjustable', 'adjust'], ['defensible', 'defens'], ['irritant', 'irrit'], ['replacement', 'replac'],
  ['adjustment', 'adjust'], ['dependent', 'depend'], ['adoption', 'adopt'], ['homologou', 'homolog'], ['communism', 'commun'],
  ['activate', 'activ'], ['angulariti', 'angular'], ['homologous', 'homolog'], ['effective', 'effect'], ['bowdlerize', 'bowdler'],
  ['probate', 'probat'], ['rate', 'rate'], ['cease', 'ceas'], ['controll', 'control'], ['roll', 'roll'],
  ['generalizations', 'gener'], ['archaeology', 'archaeolog'], ['possibly', 'possibl'], ['is', 'is'], ['as', 'as'], ['ß', 'ß'],
];

describe('Porter stemmer (as Lucene applies it)', () => {
  it('stems the paper examples', () => {
    for (const [w, s] of CASES) expect(porterStem(w), w).toBe(s);
  });
  it('leaves words of one or two units alone', () => {
    expect(porterStem('s')).toBe('s');
    expect(porterStem('ys')).toBe('ys');
  });
});
