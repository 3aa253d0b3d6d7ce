/**
 * The user's nouns for the rows of each workspace table, for an import undo's report (undo-last.ts):
 * the rows it took out or put back, kept (work done since refers to them) or skipped (changed again
 * since) are said in these words, never by table name ("kept 2 pool candidates", not "2
 * pool_candidates rows"). Every table an import's journal covers has one (undo-nouns.test.ts checks
 * the schema): an undo's kept and skipped counts can name any of them.
 */
import { counted } from '../../shared/plural';

/** Table → [noun for one row, noun for several]. */
export const TABLE_NOUNS: Readonly<Record<string, readonly [string, string]>> = {
  questions: ['question', 'questions'],
  answers: ['answer or comment', 'answers or comments'],
  duplicate_pairs: ['duplicate pair', 'duplicate pairs'],
  negative_pairs: ['negative pair', 'negative pairs'],
  question_text_history: ['replaced question text', 'replaced question texts'],
  pools: ['pool', 'pools'],
  pool_queries: ['pool query', 'pool queries'],
  pool_candidates: ['pool candidate', 'pool candidates'],
  pool_candidate_orders: ["candidate's place in a pool's order", "candidates' places in pools' orders"],
  pool_annotators: ["pool's annotator", "pools' annotators"],
  pool_assignments: ['assignment', 'assignments'],
  pool_assignment_plans: ['assignment plan', 'assignment plans'],
  pool_blind_history: ['blind setting change', 'blind setting changes'],
  pool_judge_spans: ['span of time a person judged a pool', 'spans of time people judged pools'],
  pool_draws: ['labeling-order draw', 'labeling-order draws'],
  labels: ['label event', 'label events'],
  label_notes: ['note on a label', 'notes on labels'],
  annotators: ['person', 'people'],
  annotator_tokens: ['sign-in token', 'sign-in tokens'],
  runs: ['run', 'runs'],
  run_scores: ['run score', 'run scores'],
  models: ['model', 'models'],
  model_trained_on: ["model's training query", "models' training queries"],
  live_training: ['learn-as-we-label setting', 'learn-as-we-label settings'],
  live_curve: ['learn-as-we-label curve point', 'learn-as-we-label curve points'],
  live_uncovered: ['labeled pair a live retrain left for the next', 'labeled pairs live retrains left for the next'],
  imports: ['imports audit entry', 'imports audit entries'],
  meta: ['workspace setting', 'workspace settings'],
  bm25_docs: ['BM25 index entry', 'BM25 index entries'],
  bm25_segments: ['BM25 index segment', 'BM25 index segments'],
  bm25_postings: ['BM25 postings chunk', 'BM25 postings chunks'],
  bm25_meta: ['BM25 index setting', 'BM25 index settings'],
};

/** `n` rows of `table` in the user's words ("2 pool candidates"); a table without a noun yet, in words made of its name ("3 foo bar entries"). */
export function tableRows(table: string, n: number): string {
  const nouns = TABLE_NOUNS[table];
  return nouns ? counted(n, nouns[0], nouns[1]) : counted(n, `${table.replace(/_/g, ' ')} entry`, `${table.replace(/_/g, ' ')} entries`);
}
