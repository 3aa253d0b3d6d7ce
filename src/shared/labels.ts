/**
 * Label schemes. A label value is stored as text exactly as the annotator gave it; each scheme
 * says which values it accepts, how a value maps to a numeric grade, and the default threshold
 * at which a grade counts as relevant (grade >= threshold).
 *
 * - binary:   "1" similar, "0" not similar                          grade 1 / 0, relevant ≥ 1
 * - semeval3: PerfectMatch / Relevant / Irrelevant (SemEval Task 3)  grade 2 / 1 / 0, relevant ≥ 1
 * - likert5:  "-2" … "2"                                             grade −2 … 2, relevant ≥ 1 (> 0)
 * - graded:   any integer (TREC qrels)                               grade = integer, relevant ≥ 1
 * In every scheme "?" means unsure: it is recorded, but counts as unjudged.
 */
export type LabelScheme = 'binary' | 'semeval3' | 'likert5' | 'graded';
export const LABEL_SCHEMES: readonly LabelScheme[] = ['binary', 'semeval3', 'likert5', 'graded'];
export const UNSURE = '?';

/**
 * The reason (WireError.reason) of a stamped label refused as a late copy: the same page's later label of the pair
 * was taken first (engine/label-stamps.ts). Nothing to save or show: an outbox drops it as already superseded.
 */
export const LABEL_SUPERSEDED = 'label-superseded';

const SEMEVAL_GRADES: Record<string, number> = { PerfectMatch: 2, Relevant: 1, Irrelevant: 0 };

export function isLabelScheme(s: unknown): s is LabelScheme {
  return typeof s === 'string' && (LABEL_SCHEMES as readonly string[]).includes(s);
}

/** Values a scheme accepts besides "?" (for `graded`, any integer). */
export function schemeValues(scheme: LabelScheme): string[] {
  switch (scheme) {
    case 'binary':
      return ['1', '0'];
    case 'semeval3':
      return ['PerfectMatch', 'Relevant', 'Irrelevant'];
    case 'likert5':
      return ['-2', '-1', '0', '1', '2'];
    case 'graded':
      return [];
  }
}

/**
 * Normalises a label value as written in a file or typed by a user for a scheme; returns null
 * when the value is not valid for that scheme. Accepts common spellings: binary also takes
 * true/false, yes/no, similar/not-similar; semeval3 is case-insensitive.
 */
export function normaliseLabel(scheme: LabelScheme, raw: string): string | null {
  const v = raw.trim();
  if (v === UNSURE) return UNSURE;
  switch (scheme) {
    case 'binary': {
      const l = v.toLowerCase();
      if (['1', 'true', 'yes', 'similar', 'relevant', 'dup', 'duplicate'].includes(l)) return '1';
      if (['0', 'false', 'no', 'not-similar', 'not similar', 'irrelevant', 'not_similar'].includes(l)) return '0';
      return null;
    }
    case 'semeval3': {
      const hit = Object.keys(SEMEVAL_GRADES).find((k) => k.toLowerCase() === v.toLowerCase());
      if (hit) return hit;
      if (v === '2') return 'PerfectMatch';
      if (v === '1') return 'Relevant';
      if (v === '0') return 'Irrelevant';
      return null;
    }
    case 'likert5': {
      if (!/^[+-]?\d+$/.test(v)) return null;
      const n = Number(v);
      return n >= -2 && n <= 2 ? String(n) : null;
    }
    case 'graded':
      return /^[+-]?\d+$/.test(v) ? String(Number(v)) : null;
  }
}

/** The lowest and highest grade a scheme's values give (null for graded: any integer). */
export function schemeGradeRange(scheme: LabelScheme): { min: number; max: number } | null {
  switch (scheme) {
    case 'binary':
      return { min: 0, max: 1 };
    case 'semeval3':
      return { min: 0, max: 2 };
    case 'likert5':
      return { min: -2, max: 2 };
    case 'graded':
      return null;
  }
}

/**
 * What evaluating from grade `threshold` says when that grade is the scheme's lowest or below (binary
 * and SemEval from 0, Likert from −2): every grade is similar, so every labeled candidate counts as
 * similar and the figures do not measure the runs' order (only "?" and unlabeled candidates are not
 * similar). Null for a threshold above the lowest grade and for graded pools (no lowest grade).
 */
export function everyGradeSimilarNote(scheme: LabelScheme, threshold: number): string | null {
  const range = schemeGradeRange(scheme);
  if (range === null || threshold > range.min) return null;
  return (
    `similar from grade ${threshold} takes every grade of the ${scheme} scheme (${range.min} to ${range.max}): every labeled candidate counts as similar, ` +
    `so the figures do not measure the runs' order (only "?" and unlabeled candidates are not similar)`
  );
}

/** Numeric grade of a stored value, or null for "?" / unknown values (unjudged). */
export function labelGrade(value: string | null | undefined): number | null {
  if (value == null || value === UNSURE) return null;
  if (value in SEMEVAL_GRADES) return SEMEVAL_GRADES[value]!;
  if (/^[+-]?\d+$/.test(value)) return Number(value);
  return null;
}

/** Default relevance threshold: relevant iff grade >= 1 (binary 1; PerfectMatch/Relevant; Likert > 0). */
export const DEFAULT_RELEVANCE_THRESHOLD = 1;
