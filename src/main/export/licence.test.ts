/**
 * Every export carries question text under its source's licence: a gold set built on a Stack Exchange
 * dump is CC BY-SA content, which must be attributed and shared alike. The datasheet and the
 * hf-dataset card said where the data came from (the imports) and never under what licence, so a
 * published export carried CC BY-SA text with no licence stated, and a card with no `license`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runImport } from '../engine/work';
import { scratchWorkspaces } from '../workspace/scratch-workspaces';
import { buildExport } from './index';
import { dataset } from '../../../tests/datasets';

const scratch = scratchWorkspaces('qpairs-export-licence-');

function file(name: string, text: string): string {
  const f = path.join(scratch.dir, name);
  mkdirSync(path.dirname(f), { recursive: true });
  writeFileSync(f, text);
  return f;
}

const seRow = (id: number, title: string): string => `  <row Id="${id}" PostTypeId="1" Title="${title}" Body="&lt;p&gt;${title} body&lt;/p&gt;" />\n`;
const posts = `<?xml version="1.0" encoding="utf-8"?>\n<posts>\n${seRow(1, 'grep a folder')}${seRow(2, 'grep files in a folder')}${seRow(3, 'mount a disk')}</posts>\n`;
const labels = 'query_id,candidate_id,label\n1,2,1\n1,3,0\n';

/** The datasheet's licence part: from its heading to the next section. */
function licencePart(sheet: string): string {
  const from = sheet.indexOf('## Licence of the source data');
  expect(from).toBeGreaterThan(0);
  const to = sheet.indexOf('\n## ', from + 1);
  return sheet.slice(from, to < 0 ? undefined : to);
}

const frontMatter = (card: string): string => card.slice(0, card.indexOf('\n---', 3));

describe("an export's licence of the source data", () => {
  it('a Stack Exchange dump: CC BY-SA in the datasheet, and license cc-by-sa-4.0 on the hf-dataset card', async () => {
    const ws = scratch.fresh('w');
    await runImport(ws, 'stackexchange', [file(`se-${Math.random()}/Posts.xml`, posts)], { source: 'cooking' });
    await runImport(ws, 'labels-csv', [file('gold.csv', labels)], { pool: 'p' });
    const sheet = buildExport(ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 }).datasheet.content;
    const part = licencePart(sheet);
    expect(part).toContain('Stack Exchange posts: CC BY-SA');
    expect(part).toContain('attribute each question to its Stack Exchange site and author');
    // The labels file is the team's own: its licence is not QPairs' to know, and the datasheet says so by name.
    expect(part).toContain('Not known to QPairs for the file gold.csv (imported as labels-csv)');
    // A card names a licence only when every import that brought data has that one.
    expect(frontMatter(buildExport(ws, 'p', 'hf-dataset', 'p', { bootstrap: 20 }).datasheet.content)).not.toContain('license:');
  });

  it('the card says cc-by-sa-4.0 when all the data is Stack Exchange content', async () => {
    const ws = scratch.fresh('w');
    await runImport(ws, 'stackexchange', [file(`se-${Math.random()}/Posts.xml`, posts)], { source: 'cooking' });
    ws.createPool({ name: 'p', scheme: 'binary' });
    ws.addPoolQuery('p', '1', ['2', '3']);
    const card = buildExport(ws, 'p', 'hf-dataset', 'p', { bootstrap: 20 }).datasheet.content;
    expect(frontMatter(card)).toContain('\nlicense: cc-by-sa-4.0\n');
    expect(licencePart(card)).not.toContain('Not known');
  });

  it('a JSONL corpus and a labels file: their licence is not known to QPairs, and the datasheet says so by name', async () => {
    const ws = scratch.fresh('w');
    await runImport(ws, 'questions-jsonl', [file('mine.jsonl', ['1', '2', '3'].map((id) => JSON.stringify({ id, title: `t ${id}`, body: 'b' })).join('\n') + '\n')], {});
    await runImport(ws, 'labels-csv', [file('gold.csv', labels)], { pool: 'p' });
    const part = licencePart(buildExport(ws, 'p', 'qrels', 'p.qrels', { bootstrap: 20 }).datasheet.content);
    expect(part).toContain('Not known to QPairs for the files mine.jsonl, gold.csv (imported as questions-jsonl, labels-csv): state its licence before publishing');
    expect(part).not.toContain('CC BY-SA');
  });

  it('a workspace with no recorded import says the licence is not known', () => {
    const ws = scratch.fresh('w');
    for (const id of ['q', 'c']) ws.upsertQuestion({ id, source: 's', title: id, body: id });
    ws.createPool({ name: 'p', scheme: 'binary' });
    ws.addPoolQuery('p', 'q', ['c']);
    expect(licencePart(buildExport(ws, 'p', 'csv', 'p.csv', { bootstrap: 20 }).datasheet.content)).toContain('Not known: no import is recorded in the workspace');
  });
});

describe("the licence of a pool's own questions, not of every corpus in the workspace", () => {
  const SEMEVAL_DEV = dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml');

  /** A Stack Exchange dump (source cooking: questions 1, 2, 3) and SemEval-2016's dev set (pool dev) in one workspace. */
  async function twoCorpora(): Promise<ReturnType<typeof scratch.fresh>> {
    const ws = scratch.fresh('two');
    await runImport(ws, 'stackexchange', [file(`se-${Math.random()}/Posts.xml`, posts)], { source: 'cooking' });
    await runImport(ws, 'semeval', [SEMEVAL_DEV], { pool: 'dev' });
    ws.createPool({ name: 'se', scheme: 'binary' });
    ws.addPoolQuery('se', '1', ['2', '3']);
    return ws;
  }

  it('the imports audit keeps the sources of the questions each import gave, and the pools it gave pairs, labels or runs', async () => {
    const ws = await twoCorpora();
    await runImport(ws, 'labels-csv', [file('gold.csv', labels)], { pool: 'se' });
    expect(ws.listImports().map((i) => [i.format, (i.report as { questionSources?: unknown }).questionSources, (i.report as { pools?: unknown }).pools])).toEqual([
      ['stackexchange', ['cooking'], []],
      ['semeval', ['semeval'], ['dev']],
      ['labels-csv', [], ['se']],
    ]);
  });

  it('a pool of SemEval questions: the organisers\' terms only; its card names no licence', async () => {
    const ws = await twoCorpora();
    const part = licencePart(buildExport(ws, 'dev', 'jsonl', 'dev.jsonl', { bootstrap: 20 }).datasheet.content);
    expect(part).toContain('SemEval-2016 Task 3 (Qatar Living forum posts): in the organisers\' words "free for general research use"');
    expect(part).not.toContain('CC BY-SA');
    expect(part).toContain(
      "The licence follows the imports that gave this pool's questions (by their source) or its pairs, labels and runs (see Source corpus); 1 import of other corpora or pools in the workspace is left out.",
    );
    expect(frontMatter(buildExport(ws, 'dev', 'hf-dataset', 'dev', { bootstrap: 20 }).datasheet.content)).not.toContain('license:');
  });

  it('a pool of Stack Exchange questions: CC BY-SA only, and the card says cc-by-sa-4.0 though the workspace also holds SemEval', async () => {
    const ws = await twoCorpora();
    const card = buildExport(ws, 'se', 'hf-dataset', 'se', { bootstrap: 20 }).datasheet.content;
    expect(frontMatter(card)).toContain('\nlicense: cc-by-sa-4.0\n');
    const part = licencePart(card);
    expect(part).toContain('Stack Exchange posts: CC BY-SA');
    expect(part).not.toContain('SemEval');
    expect(part).toContain('1 import of other corpora or pools in the workspace is left out');
  });

  it("a labels file imported into one pool is in that pool's licence, not in another's", async () => {
    const ws = await twoCorpora();
    await runImport(ws, 'labels-csv', [file('team.csv', labels)], { pool: 'se' });
    const se = licencePart(buildExport(ws, 'se', 'qrels', 'se.qrels', { bootstrap: 20 }).datasheet.content);
    expect(se).toContain('Not known to QPairs for the file team.csv (imported as labels-csv)');
    const dev = buildExport(ws, 'dev', 'hf-dataset', 'dev', { bootstrap: 20 }).datasheet.content;
    expect(licencePart(dev)).not.toContain('team.csv');
    expect(licencePart(dev)).toContain('2 imports of other corpora or pools in the workspace are left out');
  });

  it('a pool mixing both corpora gets both licences and no card licence', async () => {
    const ws = await twoCorpora();
    const semevalQuestion = ws.poolQueries('dev')[0]!.queryId;
    ws.createPool({ name: 'mixed', scheme: 'binary' });
    ws.addPoolQuery('mixed', '1', ['2', semevalQuestion]);
    const card = buildExport(ws, 'mixed', 'hf-dataset', 'mixed', { bootstrap: 20 }).datasheet.content;
    expect(frontMatter(card)).not.toContain('license:');
    const part = licencePart(card);
    expect(part).toContain('Stack Exchange posts: CC BY-SA');
    expect(part).toContain('SemEval-2016 Task 3 (Qatar Living forum posts)');
    expect(part).not.toContain('left out');
  });

  it('imports recorded before their sources were noted are counted in, and the datasheet says why', async () => {
    const ws = await twoCorpora();
    ws.db.prepare(`UPDATE imports SET report = json_remove(report, '$.questionSources') WHERE format = 'stackexchange'`).run();
    const part = licencePart(buildExport(ws, 'dev', 'qrels', 'dev.qrels', { bootstrap: 20 }).datasheet.content);
    expect(part).toContain('Stack Exchange posts: CC BY-SA');
    expect(part).toContain("1 import recorded before QPairs noted the sources of an import's questions is counted in: its questions may be another corpus's.");
  });
});
