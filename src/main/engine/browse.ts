/**
 * Browse (issue 13): searching the workspace's questions with its BM25 index, and showing one
 * question with the pools it is in and the labels on it that the caller may see.
 *
 * What a caller sees (the same rules as the rest of the engine, access.ts):
 * - question text, titles and BM25 search scores: everyone (question text is not secret; these
 *   scores are the search's own, not a pool's rankers');
 * - labels: an owner or judge sees every label on the question; an annotator sees every label in
 *   a pool that is not blind, and in a blind pool only their own — never another annotator's,
 *   the judge's, gold or the aggregate;
 * - a candidate's position in the pool's original order is the retriever's rank, so an annotator
 *   of a blind pool gets null there (a query's position in the pool is no ranker's).
 */
import type { BrowseSearch, ParsedArgs, QuestionShow } from '../../shared/contract';
import { NotFoundError } from '../errors';
import type { Workspace } from '../workspace/workspace';
import { Bm25Index } from '../bm25';
import type { Caller } from './access';
import { heldIndex, indexOf, indexReady, questionSources } from './work';

const searchIndexes = new WeakMap<Workspace, { index: Bm25Index; stopWatching: () => void }>();

/**
 * The stored BM25 index, loaded read-only for searching (never synced or persisted here: a search
 * must not write, least of all while an import commits its chunks on another connection). Dropped
 * when the workspace notices another connection's commits, so an import's questions are found
 * once it has indexed them, and when the import is over (browseIndex).
 */
function storedIndex(ws: Workspace): Bm25Index {
  let held = searchIndexes.get(ws);
  if (!held) {
    held = { index: Bm25Index.load(ws.db), stopWatching: ws.onExternalChange(() => releaseStoredIndex(ws)) };
    searchIndexes.set(ws, held);
  }
  return held.index;
}

function releaseStoredIndex(ws: Workspace): void {
  const held = searchIndexes.get(ws);
  if (!held) return;
  searchIndexes.delete(ws);
  held.stopWatching();
  held.index.close();
}

/**
 * Document frequencies for shared-term highlighting (issue 24, bm25/highlight.ts rareSharedTerms),
 * N the index's non-empty documents; null when it cannot be read. Read from the engine's own index
 * when it is loaded and no long write runs (the index searches use: loading the stored copy beside
 * it took 3 s at 1M questions, holding every other request, each time a search had let it go),
 * else from the stored index as it is (never writes).
 */
export function highlightVocabulary(ws: Workspace, writes: { readonly longWriteActive: boolean }): { docFreq(term: string): number; N: number } | null {
  try {
    const held = ws.readonly || writes.longWriteActive ? undefined : heldIndex(ws);
    if (held) releaseStoredIndex(ws); // one copy of the index in memory, as browseIndex keeps
    const idx = held ?? storedIndex(ws);
    return { docFreq: (t) => idx.docFreq(t), N: idx.stats.nonEmptyDocs };
  } catch {
    return null;
  }
}

/**
 * Before highlightVocabulary: loads the engine's own index (through the write gate, as a search
 * does) when it is not loaded and no long write runs, so the first query an annotator opens loads
 * the one copy searches use too, not a stored copy that the next search lets go and loads again
 * (each load: 3-8 s of the engine thread at 1M questions). A failure leaves highlightVocabulary
 * to its fallback.
 */
export async function loadHighlightIndex(ws: Workspace, writes: { readonly longWriteActive: boolean; run<T>(fn: () => T): Promise<T> }): Promise<void> {
  if (ws.readonly || writes.longWriteActive || heldIndex(ws)) return;
  try {
    await browseIndex(ws, writes);
  } catch {
    // highlightVocabulary reads the stored copy, or highlights without frequencies
  }
}

/**
 * The index a search uses: the engine's own (indexOf: kept in step with the questions table,
 * which may mean indexing and persisting questions not indexed yet) taken through the write gate
 * when no long write (an import) runs; while one runs, or in a read-only workspace, the stored
 * index as it is (storedIndex), so a search never writes beside an import's chunks.
 */
export async function browseIndex(ws: Workspace, writes: { readonly longWriteActive: boolean; run<T>(fn: () => T): Promise<T> }): Promise<Bm25Index> {
  if (ws.readonly || writes.longWriteActive) return storedIndex(ws);
  releaseStoredIndex(ws); // the import is over: one copy of the index in memory, not two (each is tens of MB per 100,000 questions)
  await indexReady(ws); // the one loading in the background, if any (not loaded twice)
  return writes.run(() => indexOf(ws));
}

/** Whether searches hold their own read-only copy of the stored index (only while an import runs, or in a read-only workspace). */
export function holdsStoredSearchIndex(ws: Workspace): boolean {
  return searchIndexes.has(ws);
}

/**
 * The questions best matching `text` by BM25 (title + body, Lucene's formula), at most `limit`,
 * best first; with `source`, only questions of that corpus (the index's top hits over-fetched and
 * filtered, so the order is the index's restricted to the source).
 */
export function searchQuestions(ws: Workspace, a: ParsedArgs<'questions.search'>, idx: Bm25Index): BrowseSearch {
  // A source no question has (a typo) would find nothing after reading the whole index, and say only "no match".
  if (a.source !== undefined && !ws.db.prepare(`SELECT 1 FROM questions WHERE source = ? LIMIT 1`).get(a.source)) {
    throw new NotFoundError(`no questions of source "${a.source}" in the workspace (sources: ${questionSources(ws).map((s) => s.source).join(', ') || 'none'})`);
  }
  const rowOf = ws.db.prepare(`SELECT id, title, source FROM questions WHERE doc = ?`);
  const results: BrowseSearch['results'] = [];
  for (let want = a.source === undefined ? a.limit : Math.max(4 * a.limit, a.limit + 16); ; want *= 2) {
    const hits = idx.search(a.text, want);
    results.length = 0;
    for (const h of hits) {
      const row = rowOf.get(h.doc) as { id: string; title: string; source: string } | undefined;
      if (!row || (a.source !== undefined && row.source !== a.source)) continue;
      results.push({ id: row.id, title: row.title, source: row.source, score: h.score });
      if (results.length === a.limit) break;
    }
    if (results.length >= a.limit || hits.length < want || a.source === undefined) break;
  }
  return { text: a.text, source: a.source ?? null, results };
}

/** One question, its answers count, the pools it is in, and the labels on it the caller may see (module comment). */
export function showQuestion(ws: Workspace, a: ParsedArgs<'question.show'>, caller: Caller): QuestionShow {
  const question = ws.getQuestions([a.id]).get(a.id);
  if (!question) throw new NotFoundError(`no question with id "${a.id}" in the workspace`);
  const pools: QuestionShow['pools'] = [];
  for (const p of ws.listPools()) {
    if (a.pool !== undefined && p.name !== a.pool) continue;
    const sealed = caller.role === 'annotator' && p.blind;
    const mayShow = (annotator: string): boolean => !sealed || annotator === caller.annotator;
    const queries = ws.poolQueries(p.name);
    const places: Array<{ queryId: string; as: 'query' | 'candidate'; queryPosition: number; candidatePosition: number | null }> = [];
    queries.forEach((q, qi) => {
      if (q.queryId === a.id) places.push({ queryId: q.queryId, as: 'query', queryPosition: qi, candidatePosition: null });
      const ci = q.candidates.indexOf(a.id);
      if (ci >= 0) places.push({ queryId: q.queryId, as: 'candidate', queryPosition: qi, candidatePosition: sealed ? null : ci });
    });
    if (places.length === 0) continue;
    const labels = ws.currentLabels(p.name);
    for (const place of places) {
      const on = labels.filter((l) =>
        place.as === 'query' ? l.queryId === a.id : l.queryId === place.queryId && l.candidateId === a.id,
      );
      pools.push({
        pool: p.name,
        blind: p.blind,
        ...place,
        labels: on.filter((l) => mayShow(l.annotator)).map((l) => ({ annotator: l.annotator, queryId: l.queryId, candidateId: l.candidateId, value: l.value })),
      });
    }
  }
  return { question, answers: ws.answersOf(a.id).length, pools };
}
