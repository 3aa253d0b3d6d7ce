/**
 * `pseudonymize`: no person's name leaves the workspace in any file an export writes — every format,
 * every label source, the datasheet, the hf-dataset card, notes and their text, the guidelines —
 * while the questions' text is written as it is; the pseudonyms (A1, A2, … in the order the
 * workspace first knew each person) are the same in every export, and a judge's is theirs everywhere.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGGREGATE, EXPORT_FORMATS } from '../../shared/gold';
import { addAnnotator, assignPool } from '../gold';
import { scratchWorkspaces } from '../workspace/scratch-workspaces';
import type { Workspace } from '../workspace/workspace';
import { buildExport, writeExport } from '.';
import { workspacePseudonyms } from './pseudonyms';
import { engineOn } from '../engine/test-engine';
import { runImport } from '../engine/work';
import type { CommandResults } from '../../shared/contract';

const scratch = scratchWorkspaces('qpairs-pseudonyms-');

/** In creation order: A1, A2, A3, A4 (the judge). "Ann" is inside "Annual" and a word of q1's title; "bob.smith" has a regex character. */
const PEOPLE = ['Zoë Ångström', 'Ann', 'bob.smith', 'Jüri'] as const;
const [ZOE, ANN, BOB, JURI] = PEOPLE;

/** Question texts that hold the names (the source data: written as they are). No comma or quote, so csv and JSON write them verbatim. */
const TEXT: Record<string, { title: string; body: string }> = {
  q1: { title: 'Annual report by Ann', body: 'Zoë Ångström asked about bob.smith mail' },
  q2: { title: 'How do I mount a disk', body: 'Jüri wrote this body' },
  c1: { title: 'Annual report again', body: 'same as Ann asked' },
  c2: { title: 'Mounting disks', body: 'plain body two' },
  c3: { title: 'Unrelated question', body: 'plain body three' },
};

const now = new Date('2026-03-04T05:06:07Z');

/** Three annotators who disagree on q1 → c1, with notes naming each other; a judge rules with a reason; guidelines name the judge. */
function team(): Workspace {
  return fillTeam(scratch.fresh('team'));
}

function fillTeam(ws: Workspace): Workspace {
  ws.transaction(() => {
    for (const [id, t] of Object.entries(TEXT)) ws.upsertQuestion({ id, source: 'forum', ...t });
    ws.createPool({ name: 'p', scheme: 'binary', guidelines: `Ask ${JURI} when unsure; ${ANN} and ${ZOE} label everything.` });
    const run = ws.ensureRun('p', 'bm25', 'retriever');
    for (const q of ['q1', 'q2']) {
      ws.addPoolQuery('p', q, ['c1', 'c2', 'c3']);
      ['c1', 'c2', 'c3'].forEach((c, i) => ws.setRunScore(run, q, c, 3 - i));
    }
  });
  for (const name of [ZOE, ANN, BOB]) addAnnotator(ws, name);
  addAnnotator(ws, JURI, 'judge');
  assignPool(ws, 'p', [ZOE, ANN, BOB], null, 1);
  for (const who of [ZOE, ANN, BOB]) {
    for (const q of ['q1', 'q2']) for (const c of ['c1', 'c2', 'c3']) ws.addLabel({ pool: 'p', queryId: q, candidateId: c, annotator: who, value: c === 'c1' && who === ZOE ? '1' : '0', origin: 'test' });
  }
  ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'c2', annotator: ANN, value: '?', origin: 'test' });
  ws.setLabelNote({ pool: 'p', queryId: 'q1', candidateId: 'c1', annotator: ZOE, note: `I disagree with ${ANN} and ${BOB} here` });
  ws.setLabelNote({ pool: 'p', queryId: 'q1', candidateId: 'c1', annotator: ANN, note: `Annual means yearly; ask ${JURI}` });
  ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'c1', annotator: JURI, value: '1', origin: 'test' });
  ws.setLabelNote({ pool: 'p', queryId: 'q1', candidateId: 'c1', annotator: JURI, note: `${ZOE} is right` });
  return ws;
}

/** Every byte under `dir`, file by file. */
function filesUnder(dir: string): Array<{ file: string; text: string }> {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [{ file: p, text: readFileSync(p, 'utf8') }];
  });
}

/**
 * Whether `name` stands in `text` as a word of its own: "Ann" is in the datasheet's own "## Annotators"
 * and in a note's "Annual", neither of which is the name.
 */
function namesAsWord(text: string, name: string): boolean {
  const at = (i: number): boolean => i >= 0 && i < text.length && /[\p{L}\p{N}_]/u.test(text[i]!);
  for (let i = text.indexOf(name); i >= 0; i = text.indexOf(name, i + 1)) if (!at(i - 1) && !at(i + name.length)) return true;
  return false;
}

/** The text with the questions' titles and bodies taken out (longest first): what is left is what QPairs wrote. */
function withoutQuestionText(text: string): string {
  const texts = Object.values(TEXT).flatMap((t) => [t.title, t.body]).sort((a, b) => b.length - a.length);
  return texts.reduce((s, t) => s.split(t).join('\u0000'), text);
}

const SOURCES = [undefined, AGGREGATE, ZOE, ANN, BOB, JURI] as const;

describe('export --pseudonymize', () => {
  it('writes no person name in any byte of any format, label source, datasheet or card; the question text is written as it is', () => {
    const ws = team();
    let n = 0;
    for (const format of EXPORT_FORMATS) {
      for (const annotator of SOURCES) {
        const dir = path.join(scratch.dir, `out${n++}`);
        mkdirSync(dir);
        const out = path.join(dir, format === 'hf-dataset' ? 'set' : `set.${format}`);
        const built = writeExport(ws, 'p', format, out, { now, pseudonymize: true, ...(annotator ? { annotator } : {}) });
        const files = filesUnder(dir);
        expect(files.length).toBeGreaterThanOrEqual(2);
        for (const { file, text } of files) {
          const written = withoutQuestionText(text);
          // Byte for byte; "Ann" (inside the datasheet's own "Annotators") as a word of its own.
          for (const name of PEOPLE) expect(name === ANN ? namesAsWord(written, name) : written.includes(name), `${name} in ${path.relative(scratch.dir, file)} (${format}, ${annotator ?? 'default'})`).toBe(false);
        }
        for (const w of built.warnings) for (const name of PEOPLE) expect(namesAsWord(w, name), w).toBe(false);
        const all = files.map((f) => f.text).join('\n');
        expect(all).toContain('Names replaced.');
        // The questions' text is the data: "Ann" in a title stays, in jsonl, csv, hf-dataset and askubuntu's corpus.
        if (['jsonl', 'csv', 'hf-dataset', 'askubuntu'].includes(format)) expect(all).toContain(TEXT.q1!.title);
      }
    }
  });

  it('names each person A1, A2, … in the order the workspace knew them, the judge by the same pseudonym everywhere; notes and guidelines by whole words', () => {
    const ws = team();
    const names = workspacePseudonyms(ws);
    expect(PEOPLE.map(names.of)).toEqual(['A1', 'A2', 'A3', 'A4']);
    expect(names.of('gold')).toBe('gold');
    const built = buildExport(ws, 'p', 'jsonl', 'p.jsonl', { now, pseudonymize: true, annotator: AGGREGATE });
    const row = JSON.parse(built.files[0]!.content.split('\n')[0]!) as Record<string, unknown> & { notes: Array<{ annotator: string }> };
    row.notes.sort((a, b) => a.annotator.localeCompare(b.annotator));
    expect(row).toMatchObject({
      query_id: 'q1',
      candidate_id: 'c1',
      annotator: 'gold',
      label: '1',
      votes: { A1: '1', A2: '0', A3: '0' },
      judge: { annotator: 'A4', label: '1' },
      notes: [
        { annotator: 'A1', note: 'I disagree with A2 and A3 here' },
        { annotator: 'A2', note: 'Annual means yearly; ask A4' },
        { annotator: 'A4', note: 'A1 is right' },
      ],
      query_title: TEXT.q1!.title,
      query_body: TEXT.q1!.body,
    });
    const sheet = built.datasheet.content;
    expect(sheet).toContain('> Ask A4 when unsure; A2 and A1 label everything.');
    expect(sheet).toContain('Judges: A4.');
    expect(sheet).toMatch(/\| A4 \| judge \| judge \|/);
    expect(sheet).toContain('3 annotators (A1, A2, A3)');
    // The re-import hint names the pseudonyms, and the option that keeps them in each person's own export.
    expect(sheet).toContain("export each person's labels too (`--annotator NAME --pseudonymize`, one file each: A1, A2, A3, A4, under their names in the workspace)");
    // A judge's own export is theirs under the one pseudonym.
    const judge = buildExport(ws, 'p', 'csv', 'j.csv', { now, pseudonymize: true, annotator: JURI });
    expect(judge.files[0]!.content.split('\n')[1]).toMatch(/^q1,c1,A4,1,/);
    // Two exports of the same workspace agree, byte for byte.
    expect(buildExport(ws, 'p', 'jsonl', 'p.jsonl', { now, pseudonymize: true, annotator: AGGREGATE }).files).toEqual(built.files);
  });

  it('names the files of the imports after their annotator no more (the datasheet lists the imports)', async () => {
    const ws = team();
    const file = path.join(scratch.dir, `${BOB}-extra.csv`);
    writeFileSync(file, `query_id,candidate_id,annotator,label\nq2,c3,${BOB},1\n`);
    await runImport(ws, 'labels-csv', [file], { pool: 'p' });
    const sheet = buildExport(ws, 'p', 'qrels', 'p.qrels', { now, pseudonymize: true }).datasheet.content;
    expect(sheet).toContain('A3-extra.csv');
    expect(namesAsWord(sheet, BOB)).toBe(false);
    expect(buildExport(ws, 'p', 'qrels', 'p.qrels', { now }).datasheet.content).toContain(`${BOB}-extra.csv`);
  });

  it('keeps the names by default (and the test above sees them without the option)', () => {
    const ws = team();
    const built = buildExport(ws, 'p', 'hf-dataset', 'set', { now });
    const all = [...built.files, built.datasheet].map((f) => withoutQuestionText(f.content)).join('\n');
    for (const name of PEOPLE) expect(namesAsWord(all, name), name).toBe(true);
    expect(all).not.toContain('Names replaced.');
  });

  it('export.preview and export.write take it as an argument (default: the names)', async () => {
    const dir = path.join(scratch.dir, 'engine');
    mkdirSync(dir);
    const engine = engineOn(dir, (ws) => void fillTeam(ws));
    try {
      const args = { pool: 'p', format: 'jsonl', annotator: AGGREGATE };
      const shown = (r: CommandResults['export.preview']): string => [r.datasheet, ...r.files.flatMap((f) => f.head)].map(withoutQuestionText).join('\n');
      const named = (await engine.invoke('export.preview', args)) as CommandResults['export.preview'];
      const hidden = (await engine.invoke('export.preview', { ...args, pseudonymize: true })) as CommandResults['export.preview'];
      for (const name of PEOPLE) {
        expect(namesAsWord(shown(named), name), name).toBe(true);
        expect(namesAsWord(shown(hidden), name), name).toBe(false);
      }
      const written = (await engine.invoke('export.write', { ...args, pseudonymize: true })) as CommandResults['export.write'];
      const content = written.files.map((f) => withoutQuestionText(f.content ?? '')).join('\n');
      expect(content).toContain('"votes":{"A1":"1","A2":"0","A3":"0"}');
      for (const name of PEOPLE) expect(namesAsWord(content, name), name).toBe(false);
    } finally {
      await engine.jobs.idle();
      engine.close();
    }
  });
});
