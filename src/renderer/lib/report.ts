/**
 * The import report in words: camelCase keys become phrases, numbers get their units, file paths
 * (server temp uploads included) become the file's name, internal bookkeeping is left out.
 */
import { cleanUploadPaths } from './format';
import { alreadyHeld, NOTHING_CHANGED } from '../../shared/import-unchanged';

export interface ReportLine {
  key: string;
  label: string;
  text: string;
  list?: string[];
}

const WORDS: Record<string, string> = {
  format: 'format',
  files: 'files',
  counts: 'imported',
  skipped: 'left out',
  warnings: 'warnings',
  questionsInserted: 'questions added',
  questionsUpdated: 'questions updated',
  questionsUnchanged: 'questions already there, unchanged',
  questionsReplaced: 'questions of another source replaced',
  questionsUpdatedInPools: 'updated questions that pools hold (their labels were given on the old text)',
  duplicatePairs: 'duplicate pairs',
  negativePairs: 'negative pairs',
  labels: 'labels',
  runScores: 'ranker scores',
  runs: 'runs added',
  runsUnchanged: 'runs already there, unchanged',
  runScoresChanged: 'ranker scores changed in runs already there (added, given another value or dropped)',
  answers: 'answers and comments',
  answersInserted: 'answers added',
  answersUnchanged: 'answers already there, unchanged',
  // SemEval's threads hold comments: its report counts them once, as such (it said "comments" and "answers inserted" for the same rows).
  commentsInserted: 'comments added',
  commentsUpdated: 'comments updated',
  commentsUnchanged: 'comments already there, unchanged',
  pools: 'pools',
  poolsCreated: 'pools created',
  linkToMissingQuestion: 'links to a question not in the files',
  answerToMissingQuestion: 'answers to a question not in the files',
  pairNotInPool: 'pairs not in the pool',
  notes: 'notes on labels',
  questionTextsKept: 'questions kept with the workspace’s text',
  seconds: 'time',
  elapsedMs: 'time',
  indexedQuestions: 'questions indexed (BM25)',
  // askubuntu-pool: it read "11 queries without similar", among what was imported.
  queriesWithoutSimilar: 'queries none of whose similar questions is among their candidates',
};

/** Bookkeeping no reader needs. */
const HIDDEN = new Set(['changedDocs', 'jobId', 'uploadId']);

/** "questionsInserted" → "questions inserted"; known keys get their phrase. */
export function humanKey(k: string): string {
  if (WORDS[k]) return WORDS[k]!;
  return k
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    // an acronym or one-letter word before a word: "notAQuestion" → "not A Question" (issue 24: was "not aquestion")
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
}

/** A file's name without its folders; an archive member (`/d/site.7z!/Posts.xml`) keeps the archive's name (`site.7z!/Posts.xml`). */
export function fileName(p: string): string {
  const clean = cleanUploadPaths(p);
  const member = clean.indexOf('!/');
  if (member > 0) return `${fileName(clean.slice(0, member))}!/${clean.slice(member + 2)}`;
  const parts = clean.split(/[/\\]/);
  return parts[parts.length - 1] || clean;
}

function unitFor(key: string, n: number): string {
  const k = key.toLowerCase();
  const count = n.toLocaleString('en-US');
  if (k === 'seconds' || k.endsWith('seconds')) return `${n < 10 ? n.toFixed(1) : Math.round(n)} s`;
  if (k.endsWith('ms')) return n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`;
  if (k.endsWith('bytes')) return n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MB` : `${(n / 1024).toFixed(1)} kB`;
  return count;
}

/** The counted nouns of report phrases, plural → singular. */
const SINGULAR: Record<string, string> = {
  questions: 'question',
  answers: 'answer',
  comments: 'comment',
  labels: 'label',
  pools: 'pool',
  queries: 'query',
  candidates: 'candidate',
  pairs: 'pair',
  scores: 'score',
  runs: 'run',
  notes: 'note',
  links: 'link',
  texts: 'text',
  records: 'record',
};

const PLURAL: Record<string, string> = Object.fromEntries(Object.entries(SINGULAR).map(([many, one]) => [one, many]));

/**
 * A count's phrase in the number it takes: "1 pool created", not "1 pools created" (the first plural
 * noun); and "42 empty answers", not "42 empty answer" (the reasons things were left out are keyed in
 * the singular: the last noun of a phrase with no plural one, unless it follows "a": "4 not a question").
 */
export function countPhrase(key: string, n: number): string {
  const phrase = humanKey(key);
  if (n !== 1) {
    const words = phrase.split(' ');
    if (words.some((w) => SINGULAR[w])) return phrase;
    for (let i = words.length - 1; i >= 0; i--) {
      if (!PLURAL[words[i]!]) continue;
      if (words[i - 1] !== 'a') words[i] = PLURAL[words[i]!]!;
      break;
    }
    return words.join(' ');
  }
  if (phrase === 'answers and comments') return 'answer or comment';
  return phrase.replace(new RegExp(`\\b(${Object.keys(SINGULAR).join('|')})\\b`), (w) => SINGULAR[w]!);
}

function flatText(o: Record<string, unknown>): string {
  const parts = Object.entries(o)
    .filter(([k, v]) => !HIDDEN.has(k) && v != null && typeof v !== 'object')
    .map(([k, v]) => (typeof v === 'number' ? `${unitFor(k, v)} ${countPhrase(k, v)}` : `${humanKey(k)}: ${cleanUploadPaths(String(v))}`));
  return parts.length ? parts.join(' · ') : 'none';
}

export function reportLines(report: unknown): ReportLine[] {
  if (report == null || typeof report !== 'object') return report == null ? [] : [{ key: 'result', label: 'result', text: String(report) }];
  const out: ReportLine[] = [];
  const r = report as Record<string, unknown>;
  // An import that wrote nothing says so first, in words (it read "unchanged: true" last, like any other key).
  if (r.unchanged === true) out.push({ key: 'unchanged', label: NOTHING_CHANGED, text: alreadyHeld(Array.isArray(r.files) ? r.files.length : 1) });
  for (const [k, v] of Object.entries(r)) {
    if (HIDDEN.has(k) || v == null || k === 'unchanged') continue;
    const label = humanKey(k);
    if (k === 'files' && Array.isArray(v)) {
      out.push({ key: k, label, text: v.map((f) => fileName(String(f))).join(', ') || 'none' });
    } else if (Array.isArray(v)) {
      if (v.length === 0) out.push({ key: k, label, text: 'none' });
      else out.push({ key: k, label, text: `${v.length.toLocaleString('en-US')}`, list: v.slice(0, 20).map((x) => cleanUploadPaths(typeof x === 'object' ? flatText(x as Record<string, unknown>) : String(x))) });
    } else if (typeof v === 'object') {
      out.push({ key: k, label, text: flatText(v as Record<string, unknown>) });
    } else if (typeof v === 'number') {
      out.push({ key: k, label, text: unitFor(k, v) });
    } else {
      out.push({ key: k, label, text: cleanUploadPaths(String(v)) });
    }
  }
  return out;
}
