import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Engine } from './engine';
import { Workspace } from '../workspace/workspace';
import { runImport } from './work';
import { jobDone } from './test-team';
import type { JobDone, WorkspaceStats } from '../../shared/contract';
import { dataset } from '../../../tests/datasets';

/**
 * An import's errors and warnings name the options as the surface that ran it shows them: the app's
 * import form by its fields (the engine's import.start), the CLI by its flags (runImport's default).
 */
let dir: string;
let engine: Engine;
let ws: Workspace;

const file = (name: string, text: string): string => {
  const f = path.join(dir, name);
  writeFileSync(f, text);
  return f;
};

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-import-controls-'));
  ws = Workspace.create(path.join(dir, 'w.qpairs'));
  // Questions 1 and 2 from source "first" (the file's name), in pool p.
  await runImport(ws, 'questions-jsonl', [file('first.jsonl', '{"id":"1","title":"a","body":"b"}\n{"id":"2","title":"c","body":"d"}\n')]);
  await runImport(ws, 'labels-csv', [file('l.csv', 'query_id,candidate_id,label\n1,2,1\n')], { pool: 'p' });
  engine = new Engine(ws, { transport: 'http' });
});
afterEach(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

async function appImport(args: Record<string, unknown>): Promise<JobDone> {
  const { jobId } = (await engine.invoke('import.start', args)) as { jobId: string };
  return jobDone(engine, jobId);
}

async function cliImport(format: Parameters<typeof runImport>[1], f: string, opts: Parameters<typeof runImport>[3] = {}): Promise<string> {
  const w = Workspace.open(ws.path);
  try {
    await runImport(w, format, [f], opts);
    return 'no error';
  } catch (e) {
    return (e as Error).message;
  } finally {
    w.close();
  }
}

describe('import messages name the surface’s own controls', () => {
  it('a source clash: the app names Source name and the “Replace existing questions” option, the CLI --source and --update; nothing changes', async () => {
    const clash = file('second.jsonl', '{"id":"1","title":"other","body":"text"}\n');
    const before = (await engine.invoke('workspace.stats', {})) as WorkspaceStats;
    const app = await appImport({ format: 'questions-jsonl', sources: [{ path: clash }] });
    expect(app.ok).toBe(false);
    expect(app.error).toMatch(/second\.jsonl, line 1: /);
    expect(app.error).toContain('give Source name “first” if it is the same corpus');
    expect(app.error).toContain('Import with the “Replace existing questions” option to replace it');
    expect(app.error).not.toMatch(/--[a-z]/);
    expect(await engine.invoke('workspace.stats', {})).toEqual(before);
    const cli = await cliImport('questions-jsonl', clash);
    expect(cli).toContain('give --source first if it is the same corpus');
    expect(cli).toContain('Import with --update to replace it');
  });

  it('a pooled question’s new text (same source): the app names the option, the CLI --update', async () => {
    const edit = file('edit.jsonl', '{"id":"2","title":"c","body":"new body","source":"first"}\n');
    const app = await appImport({ format: 'questions-jsonl', sources: [{ path: edit }] });
    expect(app.error).toMatch(/edit\.jsonl, line 1: .*Import with the “Replace existing questions” option to replace it on purpose/);
    expect(app.error).not.toMatch(/--[a-z]/);
    expect(await cliImport('questions-jsonl', edit)).toMatch(/Import with --update to replace it on purpose/);
    // Replaced on purpose: the warning names the option, and no report key of the CLI's (it said "questionsUpdatedInPools counts all such questions").
    const updated = await appImport({ format: 'questions-jsonl', sources: [{ path: edit }], update: true });
    const warning = (updated.report as { warnings: string[] }).warnings.join('\n');
    expect(warning).toMatch(/edit\.jsonl, line 1: question 2 .* has a new text \(the “Replace existing questions” option; .*\(the import's report counts every such question\)$/);
    expect(warning).not.toMatch(/--[a-z]|questionsUpdatedInPools/);
  });

  it('strict and unknown queries: the app names the “Strict” option, in the error and in the warning', async () => {
    const unknown = file('unknown.csv', 'query_id,candidate_id,label\n1,2,1\nzz,2,0\n');
    const strict = await appImport({ format: 'labels-csv', sources: [{ path: unknown }], pool: 'np', strict: true });
    expect(strict.error).toMatch(/unknown\.csv, line 3: query "zz" is unknown: .* \(the “Strict” option\)$/);
    expect(await cliImport('labels-csv', unknown, { pool: 'np', strict: true })).toMatch(/line 3: .*\(--strict\)$/);
    const loose = await appImport({ format: 'labels-csv', sources: [{ path: unknown }], pool: 'np' });
    expect(loose.ok).toBe(true);
    const warnings = (loose.report as { warnings: string[] }).warnings;
    expect(warnings.join('\n')).toContain('(the “Strict” option makes this an error)');
    expect(warnings.join('\n')).not.toMatch(/--[a-z]/);
  });

  it('a labels file without a pool, a run into a missing pool, a new pool’s scheme', async () => {
    expect((await appImport({ format: 'qrels', sources: [{ path: file('q.qrels', '1 0 2 1\n') }] })).error).toBe('qrels imports need a target pool (the Pool field)');
    expect(await cliImport('qrels', path.join(dir, 'q.qrels'))).toBe('qrels imports need a target pool (--pool)');
    const run = file('r.run', '1 Q0 2 1 3.5 bm\n');
    expect((await appImport({ format: 'trec-run', sources: [{ path: run }], pool: 'nosuch' })).error).toContain('create it first (the Pools screen, or import its labels');
    expect(await cliImport('trec-run', run, { pool: 'nosuch' })).toContain('create it first (qpairs pool create, or import its labels');
    // A pool the import creates takes SemEval's scheme from its first label, and says which Scheme keeps it binary.
    const sem = await appImport({ format: 'labels-csv', sources: [{ path: file('sem.csv', 'query_id,candidate_id,label\n1,2,PerfectMatch\n') }], pool: 'fresh' });
    const warnings = (sem.report as { warnings: string[] }).warnings.join('\n');
    expect(warnings).toContain('import with Scheme “binary” to keep it binary');
    expect(warnings).not.toMatch(/--[a-z]/);
    // A label no binary pool has: the error names the schemes that have it, as the Scheme field's choices.
    const likert = await appImport({ format: 'labels-csv', sources: [{ path: file('lk.csv', 'query_id,candidate_id,label\n1,2,-2\n') }], pool: 'lk' });
    expect(likert.error).toMatch(/lk\.csv, line 2: invalid label "-2" .*give the scheme of the labels \(Scheme “likert5” or “graded”; /);
    expect(likert.error).not.toMatch(/--[a-z]/);
    expect(await cliImport('labels-csv', path.join(dir, 'lk.csv'), { pool: 'lk' })).toMatch(/\(--scheme likert5 or graded; /);
  });

  it('labels for someone the pool is not assigned to: the app names the Team panel’s Assign, the CLI the assign command with this workspace', async () => {
    await engine.invoke('pool.assign', { pool: 'p', annotators: ['alice', 'bob'] });
    const carol = file('carol.csv', 'query_id,candidate_id,annotator,label\n1,2,carol,1\n');
    const app = await appImport({ format: 'labels-csv', sources: [{ path: carol }], pool: 'p' });
    const warning = (app.report as { warnings: string[] }).warnings.find((w) => w.includes('is assigned to'));
    expect(warning).toMatch(/until carol is assigned too \(the Team panel's Assign: pool “p”, annotators alice, bob, carol\)$/);
    expect(warning).not.toMatch(/qpairs|--[a-z]/);
    const w = Workspace.open(ws.path);
    try {
      const report = await runImport(w, 'labels-csv', [file('dave.csv', 'query_id,candidate_id,annotator,label\n1,2,dave,0\n')], { pool: 'p' });
      expect(report.warnings.find((x) => x.includes('is assigned to'))).toMatch(new RegExp(`\\(qpairs assign ${ws.path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} --pool p --annotators alice,bob,dave\\)$`));
    } finally {
      w.close();
    }
  });

  it('a pool, annotator or scheme given to a format that imports questions only is refused before anything is read (it was ignored: no pool was made)', async () => {
    const q = file('more.jsonl', '{"id":"9","title":"x","body":"y"}\n');
    const before = (await engine.invoke('workspace.stats', {})) as WorkspaceStats;
    await expect(engine.invoke('import.start', { format: 'questions-jsonl', sources: [{ path: q }], pool: 'dev' })).rejects.toThrow(
      'the Pool field is not used by questions-jsonl, which imports questions, no pool or labels (a pool of these questions: the Pools screen; labels: the labels-csv, labels-jsonl or qrels format)',
    );
    await expect(engine.invoke('import.start', { format: 'askubuntu-pairs', sources: [{ path: q }], annotator: 'x', scheme: 'binary' })).rejects.toThrow(
      /^the Annotator field and the Scheme field are not used by askubuntu-pairs, which imports questions and pairs, no pool/,
    );
    expect(await engine.invoke('workspace.stats', {})).toEqual(before);
    expect(await cliImport('questions-jsonl', q, { pool: 'dev' })).toMatch(/^--pool is not used by questions-jsonl/);
    // The same file without them imports.
    expect((await appImport({ format: 'questions-jsonl', sources: [{ path: q }] })).ok).toBe(true);
  });

  it('an annotator or scheme a format does not read is refused too (trec-run, semeval, askubuntu-pool ignored them: a semeval3 pool for Scheme “binary”)', async () => {
    const before = (await engine.invoke('workspace.stats', {})) as WorkspaceStats;
    const run = file('ann.run', '1 Q0 2 1 3.5 bm\n');
    await expect(engine.invoke('import.start', { format: 'trec-run', sources: [{ path: run }], pool: 'np', annotator: 'ann' })).rejects.toThrow(
      "the Annotator field is not used by trec-run: it imports a ranker's scores into an existing pool, no labels",
    );
    expect(await cliImport('trec-run', run, { pool: 'np', annotator: 'ann', scheme: 'graded' })).toBe(
      "--annotator and --scheme are not used by trec-run: it imports a ranker's scores into an existing pool, no labels",
    );
    const sem = dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml');
    await expect(engine.invoke('import.start', { format: 'semeval', sources: [{ path: sem }], scheme: 'binary' })).rejects.toThrow(/^the Scheme field is not used by semeval: its pools take SemEval’s own scheme, semeval3/);
    expect(await cliImport('askubuntu-pool', dataset('askubuntu/dev.txt'), { pool: 'au', scheme: 'likert5' })).toMatch(/^--scheme is not used by askubuntu-pool: its pools take AskUbuntu’s own scheme, binary/);
    expect(await engine.invoke('workspace.stats', {})).toEqual(before);
    // Without them, SemEval imports (its Annotator is read: the labels go to it).
    const ok = await appImport({ format: 'semeval', sources: [{ path: sem }], annotator: 'semgold' });
    expect(ok.ok, ok.error ?? '').toBe(true);
  });
});
