/**
 * Label keys per scheme. "?" (Shift+/) is "unsure" in every scheme.
 *   binary:   1 similar · 0 not similar
 *   semeval3: 2 PerfectMatch · 1 Relevant · 0 Irrelevant
 *   likert5:  1 … 5 for −2 … +2 (a 5-point scale read left to right)
 *   graded:   0 … 9 for the grade
 * Navigation keys (never labels): ↑/↓ j/k move · Home/End first/last shown · o/Space expand · Backspace/u undo · U redo ·
 * Enter/n next unlabeled query · N next query · p previous · g go to · h guidelines · x clear ·
 * b show/hide the query's body · c a note on the label (issue 24; "?" offers one) · F1 or Ctrl+/ every key.
 */
export interface LabelKey {
  key: string;
  value: string;
  label: string;
  tone: 'pos' | 'neg' | 'neutral' | 'unsure';
}

const UNSURE_KEY: LabelKey = { key: '?', value: '?', label: 'unsure', tone: 'unsure' };

export function labelKeys(scheme: string): LabelKey[] {
  switch (scheme) {
    case 'semeval3':
      return [
        { key: '2', value: 'PerfectMatch', label: 'perfect match', tone: 'pos' },
        { key: '1', value: 'Relevant', label: 'relevant', tone: 'pos' },
        { key: '0', value: 'Irrelevant', label: 'irrelevant', tone: 'neg' },
        UNSURE_KEY,
      ];
    case 'likert5':
      return [
        { key: '1', value: '-2', label: '−2 different', tone: 'neg' },
        { key: '2', value: '-1', label: '−1', tone: 'neg' },
        { key: '3', value: '0', label: '0 neutral', tone: 'neutral' },
        { key: '4', value: '1', label: '+1', tone: 'pos' },
        { key: '5', value: '2', label: '+2 same', tone: 'pos' },
        UNSURE_KEY,
      ];
    case 'graded':
      return [
        ...Array.from({ length: 10 }, (_, g) => ({ key: String(g), value: String(g), label: `grade ${g}`, tone: g > 0 ? ('pos' as const) : ('neg' as const) })),
        UNSURE_KEY,
      ];
    case 'binary':
    default:
      return [
        { key: '1', value: '1', label: 'similar', tone: 'pos' },
        { key: '0', value: '0', label: 'not similar', tone: 'neg' },
        UNSURE_KEY,
      ];
  }
}

/**
 * The keys a judge rules with in Review: the scheme's labels without "?" — a judge's "?" settles
 * nothing, and the engine refuses it (gold/review.ts checkRuling).
 */
export function rulingKeys(scheme: string): LabelKey[] {
  return labelKeys(scheme).filter((k) => k.value !== UNSURE_KEY.value);
}

/** What Review says when the judge presses "?" (nothing is sent). */
export const UNSURE_NOT_A_RULING = '“?” is not a ruling: it settles nothing. Leave the pair for another judge or discuss it, or settle it with one of the pool’s labels.';

/**
 * The label key a key press stands for: the character typed when it is a digit or "?", else the
 * digit of the top-row key pressed (KeyboardEvent.code Digit0…Digit9). On AZERTY that row types
 * & é " ' ( - è _ ç à without Shift, so the label keys needed Shift there; on QWERTY Shift+1 ("!")
 * is label 1 as well. Letters and other keys are passed on as typed.
 */
export function labelKeyOf(e: Pick<KeyboardEvent, 'key' | 'code'>): string {
  if (/^[0-9?]$/.test(e.key)) return e.key;
  const digit = /^Digit([0-9])$/.exec(e.code ?? '');
  return digit ? digit[1]! : e.key;
}

/**
 * The key a press stands for as a command (Annotate's and Review's letter keys): a letter's case
 * follows Shift, not Caps Lock, so with Caps Lock on n is still "next unlabeled" and N (Shift+n)
 * "next query" (with Caps Lock on, n went to the next query and j, k, u… did nothing). Other keys as typed.
 */
export function commandKeyOf(e: Pick<KeyboardEvent, 'key' | 'getModifierState'>): string {
  if (e.key.length !== 1 || !/[a-z]/i.test(e.key) || !e.getModifierState?.('CapsLock')) return e.key;
  return e.key === e.key.toLowerCase() ? e.key.toUpperCase() : e.key.toLowerCase();
}

export function valueForKey(scheme: string, key: string): string | null {
  return labelKeys(scheme).find((k) => k.key === key)?.value ?? null;
}

/** How a stored value reads in the table. */
export function describeLabel(scheme: string, value: string | null): { text: string; tone: LabelKey['tone'] | 'none' } {
  if (value == null) return { text: '', tone: 'none' };
  const k = labelKeys(scheme).find((x) => x.value === value);
  if (k) return { text: k.label, tone: k.tone };
  return { text: value, tone: 'neutral' };
}

export const NAV_KEYS: ReadonlyArray<[string, string]> = [
  ['↑ ↓ / j k', 'move'],
  ['Home / End', 'first / last candidate shown'],
  ['o / Space', 'expand'],
  ['b', 'query body'],
  ['x', 'clear label'],
  ['c', 'note on the label'],
  ['u / Backspace', 'undo'],
  ['U', 'redo (Shift+u)'],
  ['n / Enter', 'next unlabeled query'],
  ['N', 'next query'],
  ['p', 'previous query'],
  ['g', 'go to query'],
  ['h', 'guidelines'],
];
