/**
 * The import's options as each surface names them in its messages: the CLI by its flags
 * (`--source cstheory`), the app by its import form's fields (`Source name “cstheory”`). The
 * importers word their errors and warnings through the ImportControls they are given, so an app
 * user is never told to pass a flag the form does not have. No values of the contract here: the
 * renderer imports this file, and the contract's zod would trip its CSP.
 */
import { shellQuote } from './shell-word';

export type ImportOptionName = 'pool' | 'annotator' | 'scheme' | 'source' | 'update' | 'strict';

export interface ImportControls {
  /**
   * The option, with the value to give it when there is one (`--scheme binary`, `Scheme “binary”`),
   * or the values to choose from (`--scheme likert5 or graded`, `Scheme “likert5” or “graded”`).
   */
  option(name: ImportOptionName, value?: string | readonly string[]): string;
  /** Where a pool is created. */
  poolCreate: string;
  /**
   * How to assign a pool to these annotators (the whole list: an assignment replaces the one before):
   * the CLI's command with the workspace's path, the Team panel's Assign (the app has the workspace open).
   */
  assign(workspace: string, pool: string, annotators: readonly string[]): string;
}

/** The import form's labels (the Workspace screen shows these, and the engine's messages name them). */
export const IMPORT_FORM_LABELS: Readonly<Record<ImportOptionName, string>> = {
  pool: 'Pool',
  annotator: 'Annotator',
  scheme: 'Scheme',
  source: 'Source name',
  update: 'Replace existing questions',
  strict: 'Strict',
};

/** The CLI's flags. */
export const CLI_IMPORT_CONTROLS: ImportControls = {
  option: (name, value) => (value === undefined ? `--${name}` : `--${name} ${typeof value === 'string' ? value : value.join(' or ')}`),
  poolCreate: 'qpairs pool create',
  assign: (workspace, pool, annotators) => `qpairs assign ${shellQuote(workspace)} --pool ${shellQuote(pool)} --annotators ${shellQuote(annotators.join(','))}`,
};

/** The app's import form (desktop app and serve mode). */
export const FORM_IMPORT_CONTROLS: ImportControls = {
  option(name, value) {
    const label = IMPORT_FORM_LABELS[name];
    if (name === 'update' || name === 'strict') return `the “${label}” option`;
    if (value === undefined) return `the ${label} field`;
    return `${label} ${(typeof value === 'string' ? [value] : value).map((v) => `“${v}”`).join(' or ')}`;
  },
  poolCreate: 'the Pools screen',
  assign: (_workspace, pool, annotators) => `the Team panel's Assign: pool “${pool}”, annotators ${annotators.join(', ')}`,
};

/**
 * Formats that import questions (and duplicate pairs) only: the pool, annotator and scheme options
 * mean nothing to them. The engine refuses those options with them (they were ignored: an import
 * of questions with a pool named made no pool), and the import form leaves those fields out.
 */
export const QUESTIONS_ONLY_FORMATS: ReadonlySet<string> = new Set(['questions-jsonl', 'questions-csv', 'askubuntu-corpus', 'askubuntu-pairs', 'stackexchange']);

/**
 * Options other formats do not read, with why (they were ignored: `--scheme binary` given to a
 * SemEval import still made a semeval3 pool, `--annotator` given to a run imported no labels). The
 * engine refuses them, and the import form greys those fields out for the format.
 */
export const UNUSED_IMPORT_OPTIONS: Readonly<Record<string, { options: ReadonlyArray<'annotator' | 'scheme'>; why: string }>> = {
  'trec-run': { options: ['annotator', 'scheme'], why: "it imports a ranker's scores into an existing pool, no labels" },
  semeval: { options: ['scheme'], why: 'its pools take SemEval’s own scheme, semeval3 (PerfectMatch, Relevant, Irrelevant)' },
  'askubuntu-pool': { options: ['scheme'], why: 'its pools take AskUbuntu’s own scheme, binary (similar or not)' },
};
