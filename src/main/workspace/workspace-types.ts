/** The workspace's record types, its errors and row helpers (shared by the workspace layers). */
import { QPairsError } from '../errors';
import type { LabelScheme } from '../../shared/labels';
import type { Question } from '../../shared/types';

export type UpsertResult = 'inserted' | 'updated' | 'unchanged';

/**
 * A question (or answer) id that the workspace already holds from another source. Ids are
 * scoped by source: another source's record with the same id is refused unless the caller
 * asked to replace it (`update`). Importers turn this into an error naming file and line.
 */
export class SourceConflictError extends QPairsError {
  constructor(
    readonly kind: 'question' | 'answer',
    readonly id: string,
    readonly existingSource: string,
    readonly newSource: string,
    /** When and by what the existing record was imported, e.g. `imported 2025-… (stackexchange: Posts.xml)`; null when unknown. */
    readonly origin: string | null,
  ) {
    super(
      `${kind} id "${id}" is already in the workspace from source "${existingSource}"${origin ? ` (${origin})` : ''}, ` +
        `and this ${kind} is from source "${newSource}": ids are scoped by source, so its text was not replaced. ` +
        `Import with --update to replace it on purpose.`,
    );
    this.name = 'SourceConflictError';
  }
}

/**
 * Issue 23: an import would change the text of a question others work on — in a pool, or labeled —
 * without `update`. Nothing is replaced; `--update` replaces it and keeps the old text
 * (question_text_history).
 */
export class QuestionInUseError extends QPairsError {
  constructor(
    readonly id: string,
    readonly touched: QuestionUse,
  ) {
    super(
      `question "${id}" would get a new text, but it is ${describeUse(touched)}: its labels were given on the text it has now, so it was not replaced. ` +
        `Import with --update to replace it on purpose (the old text is kept in the question's history).`,
    );
    this.name = 'QuestionInUseError';
  }
}

/** Where a question is used: pools it is in (as a query or a candidate) and how many label events are on its pairs. */
export interface QuestionUse {
  pools: string[];
  labels: number;
}

/** "in pools a, b with 12 labels" / "in pool a" / "labeled (3 labels)". */
export function describeUse(u: QuestionUse): string {
  const pools = u.pools.length === 0 ? '' : `in pool${u.pools.length === 1 ? '' : 's'} ${u.pools.map((p) => `"${p}"`).join(', ')}`;
  const labels = u.labels === 0 ? '' : `${u.labels} label event${u.labels === 1 ? '' : 's'}`;
  return pools && labels ? `${pools} with ${labels}` : pools || `labeled (${labels})`;
}

/** Options of upsertQuestion / upsertAnswer. */
export interface UpsertOptions {
  /** Replace a record of the same id from another source (default: refuse with SourceConflictError). */
  update?: boolean;
  /** upsertAnswer: told the questions whose answers an update changed (the answer's, and the one it moved from). */
  onAnswerUpdated?(questionIds: readonly string[]): void;
}
export type AnnotatorRole = 'annotator' | 'judge' | 'owner' | 'gold' | 'system';

export interface NewQuestion {
  id: string;
  source: string;
  title?: string;
  body?: string;
  tags?: string[];
  author?: string | null;
  created?: string | null;
  category?: string | null;
}

/** An answer or comment: unlabeled text of a thread (see migration 4). */
export interface NewAnswer {
  /** The answer's own id (Stack Exchange post Id, SemEval RELC_ID). */
  id: string;
  /** The question it answers; must be in the workspace. */
  questionId: string;
  source: string;
  body: string;
  author?: string | null;
  created?: string | null;
}

export interface AnswerRow {
  question_id: string;
  position: number;
  source: string;
  body: string;
  author: string | null;
  created: string | null;
}

export interface NewPool {
  name: string;
  scheme?: LabelScheme;
  retriever?: string | null;
  depth?: number | null;
  sampling?: string | null;
  guidelines?: string;
  /** Whether annotators label the pool blind (default true). */
  blind?: boolean;
  /**
   * How eval treats a query without a relevant candidate unless told (schema 10): 'zero' (default;
   * AP 0, the SemEval scorer's rule) or 'skip' (left out; the AskUbuntu evaluation's rule).
   */
  convention?: 'skip' | 'zero';
}

export interface LabelInput {
  pool: string;
  queryId: string;
  candidateId: string;
  annotator: string;
  value: string | null;
  origin: string;
  /** Append the event even when the annotator's current label has this value (a judge ruling again on a dispute that changed since). */
  restate?: boolean;
}

export interface QuestionRow {
  doc: number;
  id: string;
  source: string;
  title: string;
  body: string;
  tags: string;
  author: string | null;
  created: string | null;
  category: string | null;
}

export const now = (): string => new Date().toISOString();

export function rowToQuestion(r: QuestionRow): Question {
  return {
    id: r.id,
    source: r.source,
    title: r.title,
    body: r.body,
    tags: r.tags ? r.tags.split(' ') : [],
    author: r.author,
    created: r.created,
    category: r.category,
  };
}
