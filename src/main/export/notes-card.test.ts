/**
 * Issue 24: notes on labels survive export → re-import (jsonl, csv, hf-dataset), with labels and
 * question texts; and the hf-dataset card declares exactly the rows' columns — the fields the
 * Hugging Face `datasets` library reads from a card (configs[].data_files with split and path,
 * dataset_info.features, dataset_info.splits[].num_examples) — for every label source.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { AGGREGATE } from '../../shared/gold';
import { runImport } from '../engine/work';
import { addAnnotator, assignPool } from '../gold';
import { scratchWorkspaces } from '../workspace/scratch-workspaces';
import { Workspace } from '../workspace/workspace';
import { hfColumns } from './formats';
import { writeExport } from '.';

/**
 * A YAML reader for the card's front matter: js-yaml when the dev dependencies bring it (no direct
 * dependency, no type declarations: hence the require and the one-method type), else blockYaml.
 */
const yaml: { load(text: string): unknown } = (() => {
  try {
    return createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };
  } catch {
    return { load: blockYaml };
  }
})();

/**
 * The block-style YAML subset a dataset card's front matter uses (mappings, sequences of scalars
 * or mappings, plain and double-quoted scalars, integers), for when js-yaml is absent.
 */
function blockYaml(text: string): unknown {
  const lines = text.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#')).map((l) => ({ ind: l.length - l.trimStart().length, t: l.trim() }));
  let i = 0;
  const scalar = (v: string): unknown => (v.startsWith('"') ? JSON.parse(v) : /^-?\d+$/.test(v) ? Number(v) : v);
  const node = (ind: number): unknown => {
    if (lines[i]!.t.startsWith('- ') || lines[i]!.t === '-') {
      const seq: unknown[] = [];
      while (i < lines.length && lines[i]!.ind === ind && lines[i]!.t.startsWith('-')) {
        const rest = lines[i]!.t.slice(1).trimStart();
        if (/^[\w-]+:( |$)/.test(rest)) {
          lines[i] = { ind: ind + 2, t: rest }; // "- key: v" opens a mapping indented past the dash
          seq.push(node(ind + 2));
        } else {
          seq.push(scalar(rest));
          i++;
        }
      }
      return seq;
    }
    const map: Record<string, unknown> = {};
    while (i < lines.length && lines[i]!.ind === ind && !lines[i]!.t.startsWith('- ')) {
      const m = /^([\w-]+):\s*(.*)$/.exec(lines[i]!.t)!;
      i++;
      if (m[2]) map[m[1]!] = scalar(m[2]);
      else map[m[1]!] = i < lines.length && lines[i]!.ind >= ind && (lines[i]!.ind > ind || lines[i]!.t.startsWith('- ')) ? node(lines[i]!.ind) : null;
    }
    return map;
  };
  return node(0);
}

const scratch = scratchWorkspaces('qpairs-notes-');
const { fresh } = scratch;

const NOTE_A = 'unsure: "same error", different OS; commas, and ; semicolons';
const NOTE_B = 'bob: duplicate\nacross two lines';
const REASON = 'judge: the accepted answer fixes both';

/** Two annotators who disagree on q1 → c1 (alice "?", bob 1), each with a note; a judge settles it with a reason. */
function team(): Workspace {
  const ws = fresh('team');
  ws.transaction(() => {
    for (const id of ['q1', 'q2', 'c1', 'c2', 'c3']) ws.upsertQuestion({ id, source: 'forum', title: `How do I ${id}?`, body: `Body of ${id}, with "quotes"` });
    ws.createPool({ name: 'p', scheme: 'binary' });
    for (const q of ['q1', 'q2']) ws.addPoolQuery('p', q, ['c1', 'c2', 'c3']);
  });
  addAnnotator(ws, 'alice');
  addAnnotator(ws, 'bob');
  addAnnotator(ws, 'carol', 'judge');
  assignPool(ws, 'p', ['alice', 'bob'], null, 1);
  for (const [who, v] of [
    ['alice', '0'],
    ['bob', '0'],
  ] as const) {
    for (const q of ['q1', 'q2']) for (const c of ['c1', 'c2', 'c3']) ws.addLabel({ pool: 'p', queryId: q, candidateId: c, annotator: who, value: v, origin: 'test' });
  }
  ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'c1', annotator: 'alice', value: '?', origin: 'test' });
  ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'c1', annotator: 'bob', value: '1', origin: 'test' });
  ws.setLabelNote({ pool: 'p', queryId: 'q1', candidateId: 'c1', annotator: 'alice', note: NOTE_A });
  ws.setLabelNote({ pool: 'p', queryId: 'q1', candidateId: 'c1', annotator: 'bob', note: NOTE_B });
  ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'c1', annotator: 'carol', value: '1', origin: 'test' });
  ws.setLabelNote({ pool: 'p', queryId: 'q1', candidateId: 'c1', annotator: 'carol', note: REASON });
  return ws;
}

const notesOf = (ws: Workspace, pool: string): string[] => ws.labelNotes(pool).map((n) => `${n.queryId}→${n.candidateId} ${n.annotator}: ${n.note}`);

describe('notes round-trip through export and re-import', () => {
  for (const format of ['jsonl', 'csv', 'hf-dataset'] as const) {
    it(`${format}: the aggregate's labels, every note and the judge's reason, and the question texts come back`, async () => {
      const ws = team();
      const out = path.join(scratch.dir, format === 'hf-dataset' ? 'hf' : `gold.${format}`);
      const built = writeExport(ws, 'p', format, out);
      expect(built.datasheet.content).toContain('Notes: 3 notes on labels');
      const back = fresh(`back-${format}`);
      const file = format === 'hf-dataset' ? path.join(out, 'data', 'pairs.jsonl') : out;
      const report = await runImport(back, format === 'csv' ? 'labels-csv' : 'labels-jsonl', [file], { pool: 'p', scheme: 'binary' });
      expect((report as { counts?: Record<string, number> }).counts?.notes).toBe(3);
      expect(notesOf(back, 'p')).toEqual(notesOf(ws, 'p'));
      expect(back.currentLabels('p', 'gold').find((l) => l.queryId === 'q1' && l.candidateId === 'c1')?.value).toBe('1');
      expect(back.getQuestion('c1')).toMatchObject({ title: 'How do I c1?', body: 'Body of c1, with "quotes"' });
      // The re-imported pool's own export (its labels are gold now, the default source) carries the same notes:
      // export → import → export loses none.
      const again = writeExport(back, 'p', format, path.join(scratch.dir, format === 'hf-dataset' ? 'hf-again' : `again.${format}`));
      expect(again.datasheet.content).toContain("Notes: 3 notes on labels (every annotator's notes and the judges' reasons for their rulings)");
      if (format !== 'csv') {
        const rowNotes = (b: typeof built): unknown[] => b.files.find((f) => f.name.endsWith('.jsonl'))!.content.trim().split('\n').map((l) => (JSON.parse(l) as { notes?: unknown }).notes);
        expect(rowNotes(again)).toEqual(rowNotes(built));
      }
      const third = fresh(`third-${format}`);
      const againFile = format === 'hf-dataset' ? path.join(scratch.dir, 'hf-again', 'data', 'pairs.jsonl') : path.join(scratch.dir, `again.${format}`);
      await runImport(third, format === 'csv' ? 'labels-csv' : 'labels-jsonl', [againFile], { pool: 'p', scheme: 'binary' });
      expect(notesOf(third, 'p')).toEqual(notesOf(ws, 'p'));
    });
  }

  for (const format of ['hf-dataset', 'jsonl', 'csv'] as const) {
    it(`${format}: the questions come back under the sources they had, not the file's name ("pairs")`, async () => {
      // Two corpora in one pool: the candidates c2 and c3 come from another source.
      const ws = fresh(`two-sources-${format}`);
      ws.transaction(() => {
        for (const id of ['q1', 'q2', 'c1', 'c2', 'c3']) ws.upsertQuestion({ id, source: id === 'c2' || id === 'c3' ? 'meta' : 'forum', title: `How do I ${id}?`, body: `Body of ${id}` });
        ws.createPool({ name: 'p', scheme: 'binary' });
        for (const q of ['q1', 'q2']) {
          ws.addPoolQuery('p', q, ['c1', 'c2', 'c3']);
          for (const c of ['c1', 'c2', 'c3']) ws.addLabel({ pool: 'p', queryId: q, candidateId: c, annotator: 'gold', value: c === 'c1' ? '1' : '0', origin: 'test' });
        }
      });
      const out = path.join(scratch.dir, format === 'hf-dataset' ? 'hf-sources' : `sources.${format}`);
      writeExport(ws, 'p', format, out);
      const back = fresh(`sources-${format}`);
      const file = format === 'hf-dataset' ? path.join(out, 'data', 'pairs.jsonl') : out;
      await runImport(back, format === 'csv' ? 'labels-csv' : 'labels-jsonl', [file], { pool: 'p', scheme: 'binary' });
      const sources = (w: Workspace): Record<string, string | undefined> => Object.fromEntries(['q1', 'q2', 'c1', 'c2', 'c3'].map((id) => [id, w.getQuestion(id)?.source]));
      expect(sources(ws)).toEqual({ q1: 'forum', q2: 'forum', c1: 'forum', c2: 'meta', c3: 'meta' });
      expect(sources(back)).toEqual(sources(ws));
    });
  }

  it('an hf-dataset made before the source columns is still read: its data/pairs.jsonl comes back under --source, else "pairs" (the file\'s name)', async () => {
    const ws = fresh('older-hf');
    ws.transaction(() => {
      for (const id of ['q1', 'c1', 'c2']) ws.upsertQuestion({ id, source: 'forum', title: `How do I ${id}?`, body: `Body of ${id}` });
      ws.createPool({ name: 'p', scheme: 'binary' });
      ws.addPoolQuery('p', 'q1', ['c1', 'c2']);
      for (const c of ['c1', 'c2']) ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: c, annotator: 'gold', value: c === 'c1' ? '1' : '0', origin: 'test' });
    });
    const out = path.join(scratch.dir, 'hf-older');
    writeExport(ws, 'p', 'hf-dataset', out);
    // As an export of the version before: the same rows without query_source and candidate_source.
    const file = path.join(out, 'data', 'pairs.jsonl');
    const rows = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    writeFileSync(file, rows.map(({ query_source: _q, candidate_source: _c, ...rest }) => JSON.stringify(rest)).join('\n') + '\n');
    const byName = fresh('older-hf-by-name');
    await runImport(byName, 'labels-jsonl', [file], { pool: 'p', scheme: 'binary' });
    expect(byName.getQuestion('c1')?.source).toBe('pairs');
    expect(byName.poolQueries('p')).toEqual(ws.poolQueries('p'));
    const bySource = fresh('older-hf-by-source');
    await runImport(bySource, 'labels-jsonl', [file], { pool: 'p', scheme: 'binary', source: 'forum' });
    expect(['q1', 'c1', 'c2'].map((id) => bySource.getQuestion(id)?.source)).toEqual(['forum', 'forum', 'forum']);
  });

  it("a pair's notes come back in the same order when the file names its people in another order (before: the judge's first)", async () => {
    const ws = team();
    // The first note in the file is the judge's alone (carol), so a re-import numbers carol before alice.
    for (const who of ['alice', 'bob']) ws.setLabelNote({ pool: 'p', queryId: 'q1', candidateId: 'c1', annotator: who, note: null });
    ws.setLabelNote({ pool: 'p', queryId: 'q2', candidateId: 'c2', annotator: 'alice', note: NOTE_A });
    ws.setLabelNote({ pool: 'p', queryId: 'q2', candidateId: 'c2', annotator: 'carol', note: REASON });
    const rowNotes = (b: ReturnType<typeof writeExport>): unknown[] => b.files[0]!.content.trim().split('\n').map((l) => (JSON.parse(l) as { notes?: unknown }).notes);
    const built = writeExport(ws, 'p', 'jsonl', path.join(scratch.dir, 'order.jsonl'));
    const back = fresh('back-order');
    await runImport(back, 'labels-jsonl', [path.join(scratch.dir, 'order.jsonl')], { pool: 'p', scheme: 'binary' });
    const again = writeExport(back, 'p', 'jsonl', path.join(scratch.dir, 'order-again.jsonl'));
    expect(rowNotes(built)[4]).toEqual([
      { annotator: 'alice', note: NOTE_A },
      { annotator: 'carol', note: REASON },
    ]);
    expect(rowNotes(again)).toEqual(rowNotes(built));
  });

  it("one annotator's export carries only that annotator's notes", () => {
    const ws = team();
    const built = writeExport(ws, 'p', 'jsonl', path.join(scratch.dir, 'alice.jsonl'), { annotator: 'alice' });
    const rows = built.files[0]!.content.trim().split('\n').map((l) => JSON.parse(l) as { notes: unknown[] });
    expect(rows.flatMap((r) => r.notes)).toEqual([{ annotator: 'alice', note: NOTE_A }]);
  });
});

/** The YAML front matter of a dataset card. */
function frontMatter(card: string): Record<string, unknown> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(card);
  if (!m) throw new Error('no front matter');
  return yaml.load(m[1]!) as Record<string, unknown>;
}

type YamlFeature = { name: string; dtype?: string; list?: Array<{ name: string; dtype: string }>; struct?: Array<{ name: string; dtype: string }> };

/** Whether a JSON value fits a card feature (null fits any, as `datasets` reads JSON). */
function fits(v: unknown, f: YamlFeature): boolean {
  if (v === null) return true;
  if (f.dtype === 'string') return typeof v === 'string';
  if (f.dtype === 'float64') return typeof v === 'number';
  if (f.dtype === 'bool') return typeof v === 'boolean';
  const fields = f.list ?? f.struct;
  if (!fields) return false;
  const names = fields.map((x) => x.name).sort();
  const one = (o: unknown): boolean => typeof o === 'object' && o !== null && JSON.stringify(Object.keys(o).sort()) === JSON.stringify(names) && Object.values(o).every((x) => typeof x === 'string');
  return f.list ? Array.isArray(v) && v.every(one) : one(v);
}

describe('hf-dataset card: what `datasets` reads from it matches the data', () => {
  it('the fallback reader reads a card as js-yaml does', () => {
    const ws = team();
    writeExport(ws, 'p', 'hf-dataset', path.join(scratch.dir, 'hf0'), { annotator: AGGREGATE });
    const m = /^---\n([\s\S]*?)\n---\n/.exec(readFileSync(path.join(scratch.dir, 'hf0', 'README.md'), 'utf8'))!;
    expect(blockYaml(m[1]!)).toEqual(yaml.load(m[1]!));
  });

  it('the card claims no language: the corpus may be in any (it said English for every export)', () => {
    const ws = team();
    writeExport(ws, 'p', 'hf-dataset', path.join(scratch.dir, 'hf-lang'));
    const fm = frontMatter(readFileSync(path.join(scratch.dir, 'hf-lang', 'README.md'), 'utf8')) as Record<string, unknown>;
    expect(fm.pretty_name).toBe('QPairs pool p');
    expect(fm).not.toHaveProperty('language');
  });

  for (const annotator of [undefined, AGGREGATE, 'alice', 'carol'] as const) {
    for (const text of [true, false]) {
      it(`labels of ${annotator ?? '(default)'}, text ${text ? 'on' : 'off'}: features = the rows' columns, splits, num_examples, data_files`, () => {
        const ws = team();
        const out = path.join(scratch.dir, 'hf');
        writeExport(ws, 'p', 'hf-dataset', out, { annotator, text });
        const card = readFileSync(path.join(out, 'README.md'), 'utf8');
        const rows = readFileSync(path.join(out, 'data', 'pairs.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
        const fm = frontMatter(card) as {
          configs: Array<{ config_name: string; data_files: Array<{ split: string; path: string }> }>;
          dataset_info: { features: YamlFeature[]; splits: Array<{ name: string; num_examples: number }> };
        };
        expect(fm.configs).toEqual([{ config_name: 'default', data_files: [{ split: 'test', path: 'data/pairs.jsonl' }] }]);
        expect(fm.dataset_info.splits).toEqual([{ name: 'test', num_examples: rows.length }]);
        expect(rows.length).toBe(6);
        const names = fm.dataset_info.features.map((f) => f.name);
        expect(names).toEqual(hfColumns(text).map((c) => c.name));
        for (const r of rows) {
          expect(Object.keys(r)).toEqual(names);
          for (const f of fm.dataset_info.features) expect(fits(r[f.name], f), `${f.name} = ${JSON.stringify(r[f.name])}`).toBe(true);
        }
      });
    }
  }
});
