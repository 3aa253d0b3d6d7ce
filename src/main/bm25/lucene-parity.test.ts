/**
 * Pools exactly as Lucene 8 builds them: for ~100 sampled queries of each shared corpus and each
 * analyzer, the top 20 of real Lucene 8.8.1 (tests/reference/LuceneReference.java, run by
 * tests/reference/lucene_fixtures.sh on the texts `qpairs corpus export` wrote) must come out of
 * our index identically — same questions in the same order — with scores within 1e-5 relative.
 * The query is the question's title + body, the question itself left out (as pool creation does).
 * The block-max pruned scan (small windows, so each query crosses many) must give the same lists.
 * The corpora are the shipped datasets/ (never skipped: a missing file fails).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { dataset } from '../../../tests/datasets';
import { importFiles } from '../import';
import { Workspace } from '../workspace/workspace';
import { ANALYZER_NAMES } from './analyzers';
import { Bm25Index } from './bm25-index';
import { questionDocuments } from './queries';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../tests/fixtures/lucene');

const CORPORA = [
  {
    name: 'semeval',
    format: 'semeval' as const,
    files: ['SemEval2016-Task3-CQA-QL-train-part1.v2.0.xml', 'SemEval2016-Task3-CQA-QL-train-part2.xml', 'SemEval2016-Task3-CQA-QL-dev.xml'].map((f) =>
      dataset(`semeval2016-task3/${f}`),
    ),
  },
  { name: 'cstheory-meta', format: 'stackexchange' as const, files: [dataset('stackexchange-cstheory-meta')] },
];

interface LuceneList {
  query: string;
  hits: Array<[string, number]>;
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

for (const corpus of CORPORA) {
  describe(`BM25 top-20 lists equal real Lucene 8's on ${corpus.name}`, () => {
    let ws: Workspace | undefined;
    const workspace = async (): Promise<Workspace> => {
      if (ws) return ws;
      const dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-lucene-'));
      dirs.push(dir);
      ws = Workspace.create(path.join(dir, 'w.qpairs'));
      // As lucene_fixtures.sh did: one import of all files, so doc numbers (the tie order) match.
      await importFiles(ws, corpus.format, corpus.files);
      return ws;
    };
    afterAll(() => ws?.close());

    for (const analyzer of ANALYZER_NAMES) {
      it(`${analyzer}: identical top-20 lists, scores within 1e-5 relative`, async () => {
        const w = await workspace();
        const lists = readFileSync(path.join(FIXTURES, `top20-${corpus.name}-${analyzer}.jsonl`), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as LuceneList);
        expect(lists.length).toBeGreaterThanOrEqual(100);
        const idx = new Bm25Index({ analyzer, pruneWindow: 256 });
        idx.addDocuments(questionDocuments(w.db));
        let identical = 0;
        let maxRel = 0;
        const mismatches: string[] = [];
        let prunedDiffer = 0;
        for (const want of lists) {
          const doc = w.docOf(want.query)!;
          const [q] = [...questionDocuments(w.db, [doc])];
          const hits = idx.searchDocument(q!, 20);
          if (JSON.stringify(idx.searchDocument(q!, 20, { scan: 'pruned' })) !== JSON.stringify(hits)) prunedDiffer++;
          const got = hits.map((h) => [w.idOfDoc(h.doc)!, h.score] as const);
          const same = got.length === want.hits.length && got.every(([id], i) => id === want.hits[i]![0]);
          if (same) identical++;
          else mismatches.push(`${want.query}: got ${got.map(([id]) => id).join(' ')} want ${want.hits.map(([id]) => id).join(' ')}`);
          got.forEach(([, s], i) => {
            const l = want.hits[i]?.[1];
            if (l !== undefined) maxRel = Math.max(maxRel, Math.abs(s - l) / Math.abs(l));
          });
        }
        console.log(`${corpus.name} ${analyzer}: ${identical} of ${lists.length} top-20 lists identical, max relative score error ${maxRel.toExponential(2)}`);
        expect(mismatches).toEqual([]);
        expect(maxRel).toBeLessThan(1e-5);
        expect(prunedDiffer).toBe(0);
      }, 60_000);
    }
  });
}
