/** labels-csv, labels-jsonl, qrels and semeval-relevancy: judgments into a pool. */
import path from 'node:path';
import { isReservedAnnotatorName, reservedAnnotatorNameError } from '../../shared/gold';
import { DEFAULT_RELEVANCE_THRESHOLD, labelGrade, normaliseLabel, schemeValues } from '../../shared/labels';
import type { PoolInfo } from '../../shared/types';
import { addPairs, annotatorName, LabelLines, labelValue, openPool, origin, putLabel, requirePoolName } from './pools';
import { putQuestion } from './questions';
import { baseName, fileError, readCsvTable, readFields, readJsonl } from './reader';
import { numericId, numericIdProblem } from './text';
import { optionName, type ImportContext, type Importer } from './types';

interface PairTarget {
  pool: PoolInfo;
  /** True when the pool was created by this import: pairs named by the file are added to it. */
  open: boolean;
  /**
   * The pool was created by this import with the default scheme (no --scheme) and holds no
   * decisive label yet: its first label decides the scheme (see schemeOfFirstLabel).
   */
  schemeOpen: boolean;
}

function target(ctx: ImportContext, scheme: 'binary' | 'graded' | undefined, addAlways = false): PairTarget {
  const name = requirePoolName(ctx);
  const existing = ctx.ws.findPool(name);
  if (existing && ctx.opts.scheme && ctx.opts.scheme !== existing.scheme && !ctx.createdPools.has(name)) {
    ctx.warn(`pool "${name}" already exists with the ${existing.scheme} scheme; the ${ctx.opts.scheme} scheme option was ignored`);
  }
  const pool = existing ?? openPool(ctx, { name, scheme: ctx.opts.scheme ?? scheme ?? 'binary', sampling: `imported (${ctx.format})` });
  const created = ctx.createdPools.has(name);
  const schemeOpen =
    created && scheme === undefined && ctx.opts.scheme === undefined && !ctx.ws.poolHasDecisiveLabel(pool.id);
  return { pool, open: addAlways || created, schemeOpen };
}

/** SemEval's label names as a semeval3 pool stores them (and its gold export writes them). */
const SEMEVAL_NAMES = new Set(schemeValues('semeval3'));

/**
 * The scheme a new pool imported without --scheme gets from its first decisive label: semeval3
 * when the label is one of SemEval's names as a semeval3 export writes them (PerfectMatch,
 * Relevant, Irrelevant), else the default binary. Before, an export of a semeval3 pool holding
 * only Relevant/Irrelevant came back as a binary pool of 1s and 0s (binary reads those words as
 * 1 and 0), losing its scheme; relevance is the same either way.
 */
function schemeOfFirstLabel(ctx: ImportContext, t: PairTarget, raw: string, file: string, line: number): void {
  const v = raw.trim();
  if (v === '?') return;
  t.schemeOpen = false;
  if (SEMEVAL_NAMES.has(v) && t.pool.scheme !== 'semeval3') {
    t.pool = ctx.ws.setUnlabeledPoolScheme(t.pool.name, 'semeval3');
    // Said, not silent: annotators of the pool get SemEval's three values (and their keys).
    ctx.warn(`pool "${t.pool.name}" got the semeval3 scheme from its first label "${v}" (${path.basename(file)} line ${line}, SemEval's name as a semeval3 export writes it); import with ${optionName(ctx, 'scheme', 'binary')} to keep it binary`);
  }
}

/** Puts the pair into the pool when it is open, else checks it is there (error naming the line). */
function ensurePair(ctx: ImportContext, t: PairTarget, file: string, line: number, q: string, c: string): void {
  if (q === c) throw fileError(file, line, `query and candidate are the same question (${q})`);
  if (t.open) addPairs(ctx, t.pool, q, [c]);
  else if (!ctx.ws.hasPoolPair(t.pool.id, q, c)) {
    throw fileError(file, line, `pair ${q} → ${c} is not in pool "${t.pool.name}" (labels go to pairs of the pool; import into a new pool to build one from the file)`);
  }
}

function requiredText(file: string, line: number, v: unknown, field: string): string {
  if (typeof v === 'number' && Number.isFinite(v) && (field === 'query_id' || field === 'candidate_id')) {
    const id = numericId(v);
    if (id === null) throw fileError(file, line, numericIdProblem(field, v));
    return id;
  }
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'string' && v.trim()) return v.trim();
  throw fileError(file, line, v === undefined || v === null || v === '' ? `missing ${field}` : `${field} must be a string or a number`);
}

/** A question's text as a gold export carries it (query_title/_body/_source, candidate_title/_body/_source). */
interface ExportedText {
  title: string;
  body: string;
  /** The question's source as exported; null when the file has none (an older export). */
  source: string | null;
}

function exportedText(title: unknown, body: unknown, source: unknown): ExportedText | null {
  const t = typeof title === 'string' ? title : '';
  const b = typeof body === 'string' ? body : '';
  const s = typeof source === 'string' && source.trim() ? source.trim() : null;
  return t || b ? { title: t, body: b, source: s } : null;
}

/**
 * The question texts of a gold export (jsonl/csv with text columns) put back into the workspace:
 * a question the workspace lacks is inserted (source: the row's query_source / candidate_source,
 * else opts.source, else the file's base name — as questions-jsonl's own source column); one it
 * holds keeps its text — when the export's text differs it is counted (questionTextsKept) and
 * warned about once per file, never overwritten. Each id is looked at once per file.
 */
class ExportedTexts {
  private readonly done = new Set<string>();
  private kept = 0;
  private example = '';
  constructor(
    private readonly ctx: ImportContext,
    private readonly file: string,
  ) {}

  put(id: string, text: ExportedText | null, line: number): void {
    if (!text || this.done.has(id)) return;
    this.done.add(id);
    const have = this.ctx.ws.getQuestion(id);
    if (!have) {
      const source = text.source ?? this.ctx.opts.source ?? baseName(this.file);
      putQuestion(this.ctx, { id, source, title: text.title, body: text.body }, { file: this.file, line, derivedSource: text.source === null && this.ctx.opts.source === undefined });
      return;
    }
    if (have.title === text.title && have.body === text.body) return;
    this.kept++;
    this.ctx.count('questionTextsKept');
    if (!this.example) this.example = `${id} on line ${line}`;
  }

  /** The warning with the count, once the file is read. */
  finish(): void {
    if (this.kept === 0) return;
    this.ctx.warn(
      `${this.file}: ${this.kept} questions have another text in the workspace than in the file (e.g. ${this.example}); ` +
        `the workspace's text was kept (questionTextsKept counts them)`,
    );
  }
}

/**
 * Issue 24: the notes of a gold export's row (`notes`: a list of {annotator, note}; in CSV that
 * list as JSON text, '' when none) put back on the pair under their annotators; counted as
 * `notes`. A malformed notes value is an error naming the line.
 */
function putNotes(ctx: ImportContext, t: PairTarget, file: string, line: number, q: string, c: string, raw: unknown): void {
  if (raw === undefined || raw === null || raw === '') return;
  let list: unknown = raw;
  if (typeof raw === 'string') {
    try {
      list = JSON.parse(raw);
    } catch {
      throw fileError(file, line, 'notes must be a JSON list of {"annotator", "note"}');
    }
  }
  if (!Array.isArray(list)) throw fileError(file, line, 'notes must be a list of {annotator, note}');
  for (const n of list) {
    const o = n as { annotator?: unknown; note?: unknown };
    if (!o || typeof o.annotator !== 'string' || !o.annotator.trim() || typeof o.note !== 'string') throw fileError(file, line, 'each note needs an annotator and a note (text)');
    if (ctx.ws.setLabelNote({ pool: t.pool.name, queryId: q, candidateId: c, annotator: o.annotator.trim(), note: o.note }, t.pool.id)) {
      ctx.count('notes');
      ctx.poolsWithNotesChanged.add(t.pool.name);
    }
  }
}

/**
 * The statuses a gold export (jsonl/csv) gives a pair written with label "?" that has no label:
 * `unlabeled` (nobody labeled it) and `unresolved` (the aggregate's rule gave no value). Such a
 * row puts its pair back in a pool the import builds, and no label: storing "?" would make it an
 * unsure label the pair never had. (`unsure` rows — the annotator did say "?" — are labels.)
 */
const NO_LABEL_STATUSES = new Set(['unlabeled', 'unresolved']);

/** Common path of labels-csv and labels-jsonl; `status`: the row's status column of a gold export, if any. */
function labelRow(
  ctx: ImportContext,
  t: PairTarget,
  seen: LabelLines,
  file: string,
  line: number,
  q: string,
  c: string,
  annotator: string | null | undefined,
  raw: string,
  status?: unknown,
): void {
  ensurePair(ctx, t, file, line, q, c);
  if (typeof status === 'string' && NO_LABEL_STATUSES.has(status.trim()) && raw.trim() === '?') {
    ctx.skip(status.trim());
    ctx.tick();
    return;
  }
  if (t.schemeOpen) schemeOfFirstLabel(ctx, t, raw, file, line);
  const value = labelValue(file, line, t.pool, raw, ctx.createdPools.has(t.pool.name) && ctx.opts.scheme === undefined ? ctx : null);
  const a = annotatorName(ctx, annotator);
  // Said here, where the line is known (the workspace's own refusal names neither file nor line).
  if (isReservedAnnotatorName(a)) throw fileError(file, line, `${reservedAnnotatorNameError(a)}: @aggregate is computed from the annotators' labels, not imported`);
  if (seen.add(ctx, q, c, a, value, line)) putLabel(ctx, t.pool, q, c, a, value, origin(ctx, file));
  ctx.tick();
}

/** One row of labels-csv or labels-jsonl, its fields as read (query and candidate ids checked). */
interface LabelFileRow {
  q: string;
  c: string;
  /** CSV: the annotator cell (undefined without the column); JSONL: the checked annotator, null when absent. */
  annotator: string | null | undefined;
  label: string;
  /** A gold export's status column, if any. */
  status: unknown;
  queryText: ExportedText | null;
  candidateText: ExportedText | null;
  /** A gold export's notes, if any (see putNotes). */
  notes: unknown;
}

/**
 * The common path of labels-csv and labels-jsonl over one file: its target pool (opened at the
 * first row), repeated lines, a gold export's texts and notes, and unknown query ids.
 */
class LabelFile {
  private t: PairTarget | null = null;
  private readonly seen: LabelLines;
  private readonly texts: ExportedTexts;
  private readonly unknown: UnknownQueries;
  constructor(
    private readonly ctx: ImportContext,
    private readonly file: string,
  ) {
    requirePoolName(ctx);
    this.seen = new LabelLines(file);
    this.texts = new ExportedTexts(ctx, file);
    this.unknown = new UnknownQueries(ctx, file);
  }

  /** The pool the labels go to, opened (or created) at the first row. */
  target(): PairTarget {
    return (this.t ??= target(this.ctx, undefined));
  }

  row(line: number, r: LabelFileRow): void {
    const t = this.target();
    this.texts.put(r.q, r.queryText, line);
    this.texts.put(r.c, r.candidateText, line);
    this.unknown.check(t, r.q, line);
    // With an annotator column, an empty cell is a mistake to report, not a label by --annotator or gold.
    if (typeof r.annotator === 'string' && !r.annotator.trim()) throw fileError(this.file, line, `missing annotator (leave the annotator column out to label as ${optionName(this.ctx, 'annotator')}, else gold)`);
    labelRow(this.ctx, t, this.seen, this.file, line, r.q, r.c, r.annotator, r.label, r.status);
    putNotes(this.ctx, t, this.file, line, r.q, r.c, r.notes);
  }

  /** The warnings of the file, once it is read. */
  finish(): void {
    this.texts.finish();
    this.unknown.finish(this.t?.pool.name);
  }
}

/**
 * CSV with a header `query_id,candidate_id,annotator,label` (annotator optional — with the column,
 * every row names one; any order; a gold export's `status` column: see NO_LABEL_STATUSES;
 * the text columns of a gold export restore missing questions, see ExportedTexts; its notes column
 * restores the notes, see putNotes;
 * extra columns ignored). Into opts.pool: an existing pool must contain every pair; a missing
 * pool is created (scheme opts.scheme ?? binary) from the pairs in file order. Query ids the
 * workspace lacks are a warning, an error with opts.strict (UnknownQueries), as in qrels.
 */
export const labelsCsv: Importer = {
  name: 'labels-csv',
  description: 'labels as CSV with a header: query_id,candidate_id,annotator,label[,query_title,query_body,candidate_title,candidate_body] (into --pool)',
  async importFile(ctx, file) {
    const f = new LabelFile(ctx, file);
    let rows = 0;
    for await (const r of readCsvTable(ctx, file, ['query_id', 'candidate_id', 'label'])) {
      f.target();
      const q = r.get('query_id')!.trim();
      const c = r.get('candidate_id')!.trim();
      if (!q) throw fileError(file, r.line, 'missing query_id');
      if (!c) throw fileError(file, r.line, 'missing candidate_id');
      f.row(r.line, {
        q,
        c,
        annotator: r.get('annotator'),
        label: r.get('label')!,
        status: r.get('status'),
        queryText: exportedText(r.get('query_title'), r.get('query_body'), r.get('query_source')),
        candidateText: exportedText(r.get('candidate_title'), r.get('candidate_body'), r.get('candidate_source')),
        notes: r.get('notes'),
      });
      rows++;
    }
    f.finish();
    if (rows === 0) ctx.warn(`${file}: no labels (only a header)`);
  },
};

/** JSON lines `{query_id, candidate_id, annotator?, label, status?}`; pool rules and status as labels-csv. */
export const labelsJsonl: Importer = {
  name: 'labels-jsonl',
  description: 'labels as JSON lines: {query_id, candidate_id, annotator?, label, query_title?, …} (into --pool)',
  async importFile(ctx, file) {
    const f = new LabelFile(ctx, file);
    for await (const { value: o, line } of readJsonl(ctx, file)) {
      f.target();
      const q = requiredText(file, line, o.query_id, 'query_id');
      const c = requiredText(file, line, o.candidate_id, 'candidate_id');
      const annotator = o.annotator === undefined || o.annotator === null ? null : requiredText(file, line, o.annotator, 'annotator');
      const label = requiredText(file, line, o.label, 'label');
      f.row(line, {
        q,
        c,
        annotator,
        label,
        status: o.status,
        queryText: exportedText(o.query_title, o.query_body, o.query_source),
        candidateText: exportedText(o.candidate_title, o.candidate_body, o.candidate_source),
        notes: o.notes,
      });
    }
    f.finish();
  },
};

/**
 * Query ids of a qrels or labels file that are unknown: neither a query of the target pool as it was
 * before this import nor a question in the workspace (a typo, or qrels meant for another pool).
 * Decided at each id's first line; memory: one entry per distinct query of the file.
 */
class UnknownQueries {
  private readonly seen = new Map<string, boolean>();
  private count = 0;
  private example = '';
  constructor(
    private readonly ctx: ImportContext,
    private readonly file: string,
  ) {}

  check(t: PairTarget, q: string, line: number): void {
    if (this.seen.has(q)) return;
    const inPool = !!this.ctx.ws.stmt(`SELECT 1 FROM pool_queries WHERE pool_id = ? AND query_id = ?`).get(t.pool.id, q);
    const known = inPool || this.ctx.ws.docOf(q) !== null;
    this.seen.set(q, known);
    if (known) return;
    const what = `query "${q}" is unknown: neither a query of pool "${t.pool.name}" nor a question in the workspace`;
    if (this.ctx.opts.strict) throw fileError(this.file, line, `${what} (${optionName(this.ctx, 'strict')})`);
    this.count++;
    if (!this.example) this.example = `"${q}" on line ${line}`;
  }

  /** The warning with the counts, once the file is read. */
  finish(pool: string | undefined): void {
    if (this.count === 0) return;
    this.ctx.warn(
      `${this.file}: ${this.count} of ${this.seen.size} query ids are unknown — neither queries of pool "${pool}" nor questions in the workspace ` +
        `(e.g. ${this.example}); their labels were imported (${optionName(this.ctx, 'strict')} makes this an error)`,
    );
  }
}

/**
 * TREC qrels `qid iter docno rel` (whitespace-separated; iter ignored): graded labels by
 * opts.annotator ?? gold into opts.pool, created with the graded scheme when absent. The judged
 * pairs are added to the pool when missing, also to an existing pool (qrels usually judge more
 * documents than one run retrieved); values are normalised by the pool's scheme. Query ids that
 * are unknown (not queries of the pool before the import, nor questions in the workspace) are a
 * warning with their count, an error with opts.strict.
 */
export const qrels: Importer = {
  name: 'qrels',
  description: 'TREC qrels: qid 0 docno relevance (graded labels into --pool)',
  async importFile(ctx, file) {
    requirePoolName(ctx);
    let t: PairTarget | null = null;
    const seen = new LabelLines(file);
    const annotator = annotatorName(ctx);
    const unknown = new UnknownQueries(ctx, file);
    for await (const { fields, line } of readFields(ctx, file)) {
      if (fields.length !== 4) throw fileError(file, line, `expected 4 fields (qid iter docno relevance), found ${fields.length}`);
      t ??= target(ctx, 'graded', true);
      const [q, , c, raw] = fields as [string, string, string, string];
      if (!/^[+-]?\d+$/.test(raw)) throw fileError(file, line, `relevance ${JSON.stringify(raw)} is not an integer`);
      unknown.check(t, q, line);
      labelRow(ctx, t, seen, file, line, q, c, annotator, raw);
    }
    unknown.finish(t?.pool.name);
  },
};

/**
 * The SemEval scorer's gold file `orgq_id \t relq_id \t rank \t score \t true|false`: binary
 * labels (true → relevant, false → not) by opts.annotator ?? gold into opts.pool. The pool
 * usually exists (import the XML first) and must then contain every pair; when absent it is
 * created (binary) from the pairs in file order. The value is written in the pool's scheme
 * ("1"/"0"; semeval3: Relevant/Irrelevant); a current label of the annotator that already agrees
 * (grade ≥ 1 iff true, e.g. PerfectMatch for true) is kept, so the XML's finer gold survives.
 * The rank and score columns (the search engine's baseline) are not imported.
 */
export const semevalRelevancy: Importer = {
  name: 'semeval-relevancy',
  description: 'SemEval Task 3 scorer gold (.relevancy): orgq_id relq_id rank score true|false (into --pool)',
  async importFile(ctx, file) {
    requirePoolName(ctx);
    let t: PairTarget | null = null;
    const seen = new LabelLines(file);
    const annotator = annotatorName(ctx);
    for await (const { fields, line } of readFields(ctx, file)) {
      if (fields.length !== 5) throw fileError(file, line, `expected 5 fields (orgq_id relq_id rank score true|false), found ${fields.length}`);
      t ??= target(ctx, 'binary');
      const [q, c, , , flag] = fields as [string, string, string, string, string];
      const f = flag.toLowerCase();
      if (f !== 'true' && f !== 'false') throw fileError(file, line, `relevance ${JSON.stringify(flag)} is not true or false`);
      ensurePair(ctx, t, file, line, q, c);
      const relevant = f === 'true';
      const value = normaliseLabel(t.pool.scheme, relevant ? '1' : '0');
      if (value === null) throw fileError(file, line, `pool "${t.pool.name}" (${t.pool.scheme}) cannot hold binary labels`);
      if (!seen.add(ctx, q, c, annotator, value, line)) continue;
      const cur = ctx.ws
        .stmt(
          `SELECT l.value FROM labels l JOIN annotators a ON a.id = l.annotator_id
           WHERE l.pool_id = ? AND a.name = ? AND l.query_id = ? AND l.candidate_id = ? ORDER BY l.seq DESC LIMIT 1`,
        )
        .get(t.pool.id, annotator, q, c) as { value: string | null } | undefined;
      const g = labelGrade(cur?.value);
      if (g !== null && g >= DEFAULT_RELEVANCE_THRESHOLD === relevant) ctx.count('labelsUnchanged');
      else putLabel(ctx, t.pool, q, c, annotator, value, origin(ctx, file));
      ctx.tick();
    }
  },
};
