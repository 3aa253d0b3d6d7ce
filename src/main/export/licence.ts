/**
 * What an export says of the licence of its data. The workspace does not record a licence; it records
 * how each import came in (the imports audit: format, files and the sources of the questions it gave —
 * an export counts the imports that gave its pool's questions, poolImports), and a few formats name their corpus:
 * a Stack Exchange dump (and AskUbuntu, Lei et al.'s files of AskUbuntu questions) is CC BY-SA content,
 * SemEval-2016 Task 3 (Qatar Living) is the organisers' "free for general research use". Any other
 * format (a JSONL or CSV corpus, labels, qrels, runs) may hold anything: its licence is not known, and
 * the datasheet says so, naming the files, rather than publishing text under no stated terms.
 */
import type { Workspace } from '../workspace/workspace';
import { counted } from '../../shared/plural';

/** An import that brought data: the imports audit's row, neither an undo nor a re-import that wrote nothing. */
export interface DataImport {
  at: string;
  format: string;
  files: string[];
  /**
   * The sources of the questions it gave (the audit's `questionSources`): [] for an import of labels or
   * runs alone; null when the audit does not say (an import recorded before QPairs noted them).
   */
  sources: string[] | null;
  /** The pools it gave pairs, labels or runs (the audit's `pools`); null when the audit does not say. */
  pools: string[] | null;
}

/** A list of names an audit row's report holds under `key` (import/index.ts questionSources, pools), or null when it has none. */
function namesIn(report: unknown, key: 'questionSources' | 'pools'): string[] | null {
  const s = typeof report === 'object' && report !== null ? (report as Record<string, unknown>)[key] : undefined;
  return Array.isArray(s) && s.every((x) => typeof x === 'string') ? (s as string[]) : null;
}

/** The imports audit marks an import that wrote no rows `unchanged: true` (import/index.ts). */
function wroteNothing(report: unknown): boolean {
  return typeof report === 'object' && report !== null && (report as { unchanged?: unknown }).unchanged === true;
}

/** The workspace's imports, split into those that brought data, undos, and re-imports that changed nothing. */
export function workspaceImports(ws: Workspace): { data: DataImport[]; undone: number; unchanged: number; all: number } {
  const all = ws.listImports();
  const undone = all.filter((i) => i.format === 'undo').length;
  const data = all.filter((i) => i.format !== 'undo' && !wroteNothing(i.report)).map((i) => ({ at: i.at, format: i.format, files: i.files, sources: namesIn(i.report, 'questionSources'), pools: namesIn(i.report, 'pools') }));
  return { data, undone, unchanged: all.length - undone - data.length, all: all.length };
}

/** The sources of a pool's questions, queries and candidates (a question the workspace holds as an id only has none). */
export function poolQuestionSources(ws: Workspace, pool: string): Set<string> {
  const id = ws.pool(pool).id;
  const rows = ws
    .stmt(
      `SELECT DISTINCT q.source FROM questions q
       JOIN (SELECT query_id AS id FROM pool_queries WHERE pool_id = ? UNION SELECT candidate_id FROM pool_candidates WHERE pool_id = ?) p ON p.id = q.id`,
    )
    .pluck()
    .all(id, id) as string[];
  return new Set(rows);
}

/**
 * The imports whose licence a pool's export carries: those that gave questions of the pool's sources,
 * or gave the pool itself pairs, labels or runs — not those of other corpora, or of other pools' labels,
 * that the workspace also holds. An import recorded before QPairs noted either cannot be told apart:
 * it is counted in, so the licence never leaves out what may apply.
 */
export function poolImports(imports: readonly DataImport[], pool: string, poolSources: ReadonlySet<string>): DataImport[] {
  return imports.filter((i) => i.sources === null || i.sources.some((s) => poolSources.has(s)) || (i.pools ?? []).includes(pool));
}

interface KnownCorpus {
  corpus: string;
  licence: string;
  /** The Hugging Face card's `license` id, when the licence has one. */
  cardLicence: string | null;
}

const STACK_EXCHANGE: KnownCorpus = {
  corpus: 'Stack Exchange posts',
  licence:
    'CC BY-SA (Creative Commons Attribution-ShareAlike: 4.0 for the data dumps and posts from May 2018, 3.0 or 2.5 for older posts) — ' +
    'attribute each question to its Stack Exchange site and author, and share adapted material under the same licence',
  cardLicence: 'cc-by-sa-4.0',
};

const KNOWN: Record<string, KnownCorpus> = {
  stackexchange: STACK_EXCHANGE,
  'askubuntu-corpus': { ...STACK_EXCHANGE, corpus: 'AskUbuntu questions (Stack Exchange posts; Lei et al. 2016)' },
  'askubuntu-pool': { ...STACK_EXCHANGE, corpus: 'AskUbuntu questions and labels (Stack Exchange posts; Lei et al. 2016, cite them)' },
  'askubuntu-pairs': { ...STACK_EXCHANGE, corpus: 'AskUbuntu question pairs (Stack Exchange posts; Lei et al. 2016, cite them)' },
  semeval: {
    corpus: 'SemEval-2016 Task 3 (Qatar Living forum posts)',
    licence: 'in the organisers\' words "free for general research use"; publications cite Nakov et al., SemEval-2016 Task 3: Community Question Answering',
    cardLicence: null,
  },
  'semeval-relevancy': {
    corpus: 'SemEval-2016 Task 3 gold (Qatar Living)',
    licence: 'in the organisers\' words "free for general research use"; publications cite Nakov et al., SemEval-2016 Task 3: Community Question Answering',
    cardLicence: null,
  },
};

const baseName = (f: string): string => f.split(/[\\/]/).pop() ?? f;

/**
 * "## Licence of the source data": one line per corpus the imports name, and the imports whose licence
 * QPairs cannot know. `imports` are the pool's (poolImports) of the workspace's `all`.
 */
export function licenceSection(imports: readonly DataImport[], all: readonly DataImport[] = imports): string[] {
  const out = ['', '## Licence of the source data', ''];
  if (!imports.length) {
    out.push(
      all.length
        ? `Not known: none of the workspace's ${counted(all.length, 'import')} that brought data gave this pool's questions (they came in through the API or an older version). State the licence of the questions and labels before publishing this set.`
        : 'Not known: no import is recorded in the workspace (its data came in through the API or an older version). State the licence of the questions and labels before publishing this set.',
    );
    return out;
  }
  const known = new Map<string, string>();
  const unknown: string[] = [];
  for (const i of imports) {
    const k = KNOWN[i.format];
    if (k) known.set(k.corpus, k.licence);
    else unknown.push(...i.files.map(baseName));
  }
  for (const [corpus, licence] of known) out.push(`- ${corpus}: ${licence}.`);
  if (unknown.length) {
    const files = [...new Set(unknown)];
    out.push(
      `- Not known to QPairs for ${files.length === 1 ? 'the file' : 'the files'} ${files.join(', ')} (imported as ${[...new Set(imports.filter((i) => !KNOWN[i.format]).map((i) => i.format))].join(', ')}): ` +
        'state its licence before publishing (for an earlier QPairs export re-imported, its own datasheet names it).',
    );
  }
  const left = all.length - imports.length;
  const untold = imports.filter((i) => i.sources === null).length;
  out.push(
    '',
    "The licence follows the imports that gave this pool's questions (by their source) or its pairs, labels and runs (see Source corpus)" +
      (left ? `; ${counted(left, 'import')} of other corpora or pools in the workspace ${left === 1 ? 'is' : 'are'} left out` : '') +
      '.' +
      (untold ? ` ${counted(untold, 'import')} recorded before QPairs noted the sources of an import's questions ${untold === 1 ? 'is' : 'are'} counted in: ${untold === 1 ? 'its' : 'their'} questions may be another corpus's.` : ''),
  );
  return out;
}

/** The card's `license` id: only when every import that brought data names one and the same. */
export function cardLicence(imports: readonly DataImport[]): string | null {
  const ids = new Set(imports.map((i) => KNOWN[i.format]?.cardLicence ?? null));
  const [only] = [...ids];
  return ids.size === 1 && only ? only : null;
}
