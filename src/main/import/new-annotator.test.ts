/**
 * An import's --annotator (the app's Annotator field) naming no one the workspace knew adds that
 * person, as before, and now says so in the report's warnings, with the known person a typo most
 * likely meant: `alcie` for alice was added in silence, and eval --annotator alice missed the labels.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPool, runImport } from '../engine/work';
import { sourceLabels } from '../gold/state';
import { cleanupTemp, tempDir, tempWorkspace } from './test-helpers';

afterEach(cleanupTemp);

/** Four questions, pool p (query a, two candidates: q → c is its first pair), and alice, a person of the workspace. */
async function poolWithAlice() {
  const dir = tempDir();
  const ws = tempWorkspace();
  const questions = path.join(dir, 'q.jsonl');
  writeFileSync(questions, ['a', 'b', 'c', 'd'].map((id) => JSON.stringify({ id, title: `wifi ${id} drops`, body: `network ${id}` })).join('\n') + '\n');
  await runImport(ws, 'questions-jsonl', [questions]);
  await createPool(ws, { name: 'p', queries: ['a'], depth: 2, scheme: 'binary' });
  const [q, c] = [ws.poolQueries('p')[0]!.queryId, ws.poolQueries('p')[0]!.candidates[0]!];
  ws.ensureAnnotator('alice');
  return { dir, ws, q, c };
}

describe('an import under --annotator', () => {
  it("says a name the workspace did not know was added, with the person it most likely meant; not for a known name or one that labeled nothing", async () => {
    const { dir, ws, q, c } = await poolWithAlice();
    const file = path.join(dir, 'labels.csv');
    writeFileSync(file, `query_id,candidate_id,label\n${q},${c},1\n`);

    const typo = await runImport(ws, 'labels-csv', [file], { pool: 'p', annotator: 'alcie' });
    expect(sourceLabels(ws, 'p', 'alcie').values.get(q)?.get(c)).toBe('1');
    expect(typo.warnings).toContain('alcie was not a person of this workspace and is added as a new annotator (did you mean alice? then undo this import and import again with annotator alice)');

    const known = await runImport(ws, 'labels-csv', [file], { pool: 'p', annotator: 'alice' });
    expect(known.warnings.filter((w) => w.includes('not a person'))).toEqual([]);

    const far = await runImport(ws, 'labels-csv', [file], { pool: 'p', annotator: 'zed' });
    expect(far.warnings).toContain('zed was not a person of this workspace and is added as a new annotator');

    // Every row names its annotator: the flag's name labels nothing and no one is added.
    const named = path.join(dir, 'named.csv');
    writeFileSync(named, `query_id,candidate_id,annotator,label\n${q},${c},alice,0\n`);
    const unused = await runImport(ws, 'labels-csv', [named], { pool: 'p', annotator: 'bobb' });
    expect(unused.warnings.filter((w) => w.includes('not a person'))).toEqual([]);
    expect(ws.listAnnotators().map((x) => x.name)).not.toContain('bobb');
  });

  it("says the same of a name a file's annotator column gave: a typo there was added in silence", async () => {
    const { dir, ws, q, c } = await poolWithAlice();

    const typo = path.join(dir, 'typo.csv');
    writeFileSync(typo, `query_id,candidate_id,annotator,label\n${q},${c},alcie,1\n${q},${c},alice,1\n`);
    const r = await runImport(ws, 'labels-csv', [typo], { pool: 'p' });
    expect(sourceLabels(ws, 'p', 'alcie').values.get(q)?.get(c)).toBe('1');
    expect(r.warnings.filter((w) => w.includes('not a person'))).toEqual([
      "alcie was not a person of this workspace and is added as a new annotator (did you mean alice? then undo this import and import again with alice in the file's annotator column)",
    ]);

    // A JSON lines file's annotator field too; names no one is close to are said together.
    const team = path.join(dir, 'team.jsonl');
    writeFileSync(team, ['zed', 'yann', 'alcie'].map((a) => JSON.stringify({ query_id: q, candidate_id: c, annotator: a, label: '0' })).join('\n') + '\n');
    const t = await runImport(ws, 'labels-jsonl', [team], { pool: 'p' });
    expect(t.warnings.filter((w) => w.includes('new annotator'))).toEqual(['zed and yann were not people of this workspace and are added as new annotators']);
  });
});
