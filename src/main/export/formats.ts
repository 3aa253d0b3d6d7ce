/**
 * Gold export formats: each renders a pool's labels (from one label source: an annotator, or the
 * aggregate) and/or its runs as text files, in pool order.
 *
 * | format | lines | re-import |
 * |---|---|---|
 * | `askubuntu` | `query \t similar \t candidates \t scores` of one run (Lei et al. dev.txt): the run's scored candidates by rank (ties in pool order), the relevant ones among them as similar, scores as the shortest decimal that reads back as the stored number (JS `String(x)`, which gives back the text of dev.txt's Lucene scores exactly). Queries without a label from the source are left out. | `askubuntu-pool` |
 * | `qrels` | `qid 0 docno grade`, graded (binary 1/0, SemEval 2/1/0, Likert −2…2), judged pairs only | `qrels` |
 * | `trec-run` | `qid Q0 docno rank score tag`, one file per run (all queries, scored candidates by rank, ties in pool order) | `trec-run` |
 * | `jsonl` | one object per pool pair: `query_id, candidate_id, annotator, label, grade, relevant, status, votes, judge` (the last two for the aggregate), `notes` (`[{annotator, note}]`, when the source has notes in the pool), then (unless text is off) `query_title, query_body, candidate_title, candidate_body, query_source, candidate_source` | `labels-jsonl --scheme S` |
 * | `csv` | header `query_id,candidate_id,annotator,label,grade,relevant,status,votes[,notes][,query_title,query_body,candidate_title,candidate_body,query_source,candidate_source]`, one row per pool pair | `labels-csv --scheme S` |
 * | `semeval-relevancy` | `orgq_id \t relq_id \t rank \t score \t true|false` (rank and score of one run; true = relevant), judged pairs only | `semeval-relevancy` |
 * | `hf-dataset` | a folder: `data/pairs.jsonl` (the jsonl rows in one fixed schema, hfColumns: votes and notes as lists, judge a struct or null, with text) + `README.md` (a Hugging Face dataset card: YAML front matter + the datasheet) | `labels-jsonl --scheme S` of `data/pairs.jsonl` |
 *
 * `askubuntu` also writes the corpus of its queries and candidates, `STEM.corpus.txt` beside the
 * pool file (`id \t title \t body`, the format of text_tokenized.txt; tabs and line breaks in the
 * text become spaces), unless text is off.
 *
 * Unresolved, unsure and unlabeled pairs (see `Handling`): jsonl/csv/hf-dataset write them with
 * label `?` and their status (`unresolved`, `unsure`, `unlabeled`); qrels and semeval-relevancy
 * leave them out (unjudged); askubuntu keeps them among a written query's candidates but not
 * among its similar ids — the format cannot say "unknown", so they read back as not similar —
 * and counts them; trec-run writes no labels.
 *
 * In `jsonl` and `csv` every pair of the pool is written, so a re-import rebuilds the pool with
 * its candidates in order; a pair without a label from the source (unlabeled, or unresolved in
 * the aggregate) is written with label `?` (unsure = unjudged, as it was) and its status. The
 * annotator column is the source's name, and `gold` for the aggregate (the exported gold set).
 * `qrels` and `semeval-relevancy` list judged pairs only: a pool with unjudged candidates loses
 * them in that round trip (metrics can then differ); `jsonl`/`csv` + `trec-run` are lossless.
 */
import { AGGREGATE, type ExportFormat } from '../../shared/gold';
import { DEFAULT_RELEVANCE_THRESHOLD, labelGrade, UNSURE } from '../../shared/labels';
import type { PoolQuery, Question } from '../../shared/types';
import { QPairsError } from '../errors';
import { rankIndices } from '../metrics';
import type { SourceLabels, PoolState } from '../gold/state';
import { pairKey } from '../gold/state';
import { counted } from '../../shared/plural';
import { memorySink, type LineSink } from './line-sink';

export interface RunData {
  name: string;
  scores: Map<string, Map<string, number>>;
}

export interface RenderInput {
  /** Question text for the formats that carry it (null: text off). */
  text: ReadonlyMap<string, Question> | null;
  pool: string;
  queries: PoolQuery[];
  labels: SourceLabels;
  state: PoolState;
  runs: RunData[];
  /** The run chosen for askubuntu / semeval-relevancy. */
  run: RunData | null;
  /**
   * Issue 24: notes on the pairs (pairKey → [{annotator, note}]) the export carries: the source
   * annotator's own, or for the aggregate every annotator's and judge's. Absent: no notes.
   */
  notes?: ReadonlyMap<string, ReadonlyArray<{ annotator: string; note: string }>>;
  /** The name written for a voter or judge (pseudonyms.ts; default the name itself). `labels.source` and `notes` come already named. */
  nameOf?: (annotator: string) => string;
  /** Where each file's lines go (default: kept in memory; `qpairs export` streams them to temporary files, line-sink.ts). */
  open?: (file: FileRole) => LineSink;
}

/** Which of an export's files: a run's (trec-run), a companion (`corpus`, `data`), or the one file of the format. */
export interface FileRole {
  /** Run name for trec-run files (one per run); null for the single file of other formats. */
  run: string | null;
  /** A companion file: `corpus` (askubuntu's text), `data` (hf-dataset's pairs). */
  role?: 'corpus' | 'data';
}

/**
 * The question columns of a jsonl, csv or hf-dataset export with text: each question's title, body
 * and source (its corpus), so a re-import creates the questions it lacks under their own source.
 */
export const TEXT_COLUMNS = ['query_title', 'query_body', 'candidate_title', 'candidate_body', 'query_source', 'candidate_source'] as const;

export type HfFeature = { dtype: string } | { list: Array<{ name: string; dtype: string }> } | { struct: Array<{ name: string; dtype: string }> };

/**
 * The columns of an hf-dataset row, in order, with their Hugging Face `datasets` feature types:
 * the one list both the rows (render) and the card's `dataset_info.features` (index.ts datasetCard)
 * are made from, so they cannot differ (issue 24). `votes`, `judge` and `notes` are in every row,
 * whoever the label source is (empty list / null for one annotator): the schema is fixed.
 */
export function hfColumns(text: boolean): Array<{ name: string; feature: HfFeature }> {
  const str = { dtype: 'string' };
  return [
    { name: 'query_id', feature: str },
    { name: 'candidate_id', feature: str },
    { name: 'annotator', feature: str },
    { name: 'label', feature: str },
    { name: 'grade', feature: { dtype: 'float64' } },
    { name: 'relevant', feature: { dtype: 'bool' } },
    { name: 'status', feature: str },
    { name: 'votes', feature: { list: [{ name: 'annotator', dtype: 'string' }, { name: 'label', dtype: 'string' }] } },
    { name: 'judge', feature: { struct: [{ name: 'annotator', dtype: 'string' }, { name: 'label', dtype: 'string' }] } },
    { name: 'notes', feature: { list: [{ name: 'annotator', dtype: 'string' }, { name: 'note', dtype: 'string' }] } },
    ...(text ? TEXT_COLUMNS.map((name) => ({ name, feature: str })) : []),
  ];
}

export interface RenderedFile extends FileRole {
  lines: LineSink;
}

/**
 * What happened to the pairs without a decisive label from the source, counted over the pool:
 * `unresolved` (the aggregate's rule gave no value: a disagreement or "?" not settled, a tie, …),
 * `unsure` (pairs with a "?": the annotator's own "?", or for the aggregate a pair with at least
 * one "?" vote — resolved or not), `unlabeled` (no label at all), and `statement`, one sentence
 * saying what this format did with them.
 */
export interface Handling {
  unresolved: number;
  unsure: number;
  unsureUnresolved: number;
  unlabeled: number;
  /** Askubuntu: such pairs written as candidates outside the similar list (i.e. read back as not similar). */
  writtenAsNotSimilar?: number;
  statement: string;
}

export interface Rendered {
  files: RenderedFile[];
  warnings: string[];
  /** Exported label values and their counts. */
  distribution: Record<string, number>;
  /** Labeled pairs / queries written. */
  labels: number;
  queries: number;
  handling: Handling;
}

/** The shortest decimal text that reads back as x (JS Number → String). */
export function formatScore(x: number): string {
  return String(x);
}

const isRelevant = (v: string): boolean => (labelGrade(v) ?? -Infinity) >= DEFAULT_RELEVANCE_THRESHOLD;

function noSpace(id: string, format: string): string {
  if (/\s/.test(id)) throw new QPairsError(`question id ${JSON.stringify(id)} contains white space and cannot be written in the ${format} format (its fields are separated by white space); export as jsonl, csv or hf-dataset instead`);
  return id;
}

/** The run's ranking of a query's candidates (ties in pool order), scored candidates only. */
function ranked(q: PoolQuery, run: RunData): Array<{ id: string; score: number }> {
  const s = run.scores.get(q.queryId);
  return rankIndices(q.candidates, s, { unscored: 'drop' }).map((i) => ({ id: q.candidates[i]!, score: s!.get(q.candidates[i]!)! }));
}

/** RFC 4180 field: quoted when it holds a comma, quote, line break or leading/trailing space. */
export function csvField(v: string): string {
  return /[",\r\n]|^\s|\s$/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export function exportAnnotatorName(source: string): string {
  return source === AGGREGATE ? 'gold' : source;
}

/** What every format's renderer shares: the input, the outputs it fills, and the readings of a pair's label. */
interface RenderContext {
  inp: RenderInput;
  format: ExportFormat;
  warnings: string[];
  files: RenderedFile[];
  handling: Handling;
  /** Counts a decisive label written for the datasheet's distribution. */
  count: (q: string, v: string) => void;
  valueOf: (q: string, c: string) => string | undefined;
  /** A decisive label: one with a grade ("?" and no label are not). */
  judged: (v: string | undefined) => v is string;
  statusOf: (q: string, c: string) => string;
  textValues: (q: string, c: string) => Array<string | null>;
  withText: (o: Record<string, unknown>, q: string, c: string) => Record<string, unknown>;
  aggregateSource: boolean;
  /** The sink of one of the export's files (RenderInput.open). */
  open: (file: FileRole) => LineSink;
}

export function render(format: ExportFormat, inp: RenderInput): Rendered {
  const warnings: string[] = [];
  const distribution: Record<string, number> = {};
  let labels = 0;
  const queriesWritten = new Set<string>();
  const count = (q: string, v: string): void => {
    distribution[v] = (distribution[v] ?? 0) + 1;
    labels++;
    queriesWritten.add(q);
  };
  const valueOf = (q: string, c: string): string | undefined => inp.labels.values.get(q)?.get(c);
  const judged = (v: string | undefined): v is string => v !== undefined && labelGrade(v) !== null;
  const files: RenderedFile[] = [];
  const aggregateSource = inp.labels.source === AGGREGATE;
  /** Status of a pair for the exports: the aggregate's, or for one annotator labeled / unsure / unlabeled. */
  const statusOf = (q: string, c: string): string => {
    const v = valueOf(q, c);
    if (aggregateSource) return inp.state.byKey.get(pairKey(q, c))?.resolution.status ?? 'unlabeled';
    return v === undefined ? 'unlabeled' : v === UNSURE ? 'unsure' : 'labeled';
  };
  const handling: Handling = { unresolved: 0, unsure: 0, unsureUnresolved: 0, unlabeled: 0, statement: '' };
  for (const q of inp.queries) {
    for (const c of q.candidates) {
      const e = inp.state.byKey.get(pairKey(q.queryId, c));
      const v = valueOf(q.queryId, c);
      if (aggregateSource) {
        if (e?.resolution.status === 'unresolved') handling.unresolved++;
        if (e?.resolution.status === 'unlabeled') handling.unlabeled++;
        if (e && e.unsure.length > 0) {
          handling.unsure++;
          if (e.resolution.value === null) handling.unsureUnresolved++;
        }
      } else if (v === undefined) handling.unlabeled++;
      else if (v === UNSURE) {
        handling.unsure++;
        handling.unsureUnresolved++;
      }
    }
  }
  /** A pair's TEXT_COLUMNS values, in their order (null: the question's text is not in the workspace). */
  const textValues = (q: string, c: string): Array<string | null> => {
    const qq = inp.text?.get(q);
    const cc = inp.text?.get(c);
    return [qq?.title ?? null, qq?.body ?? null, cc?.title ?? null, cc?.body ?? null, qq?.source ?? null, cc?.source ?? null];
  };
  const withText = (o: Record<string, unknown>, q: string, c: string): Record<string, unknown> => {
    if (!inp.text) return o;
    const values = textValues(q, c);
    return { ...o, ...Object.fromEntries(TEXT_COLUMNS.map((name, i) => [name, values[i]])) };
  };

  const open = inp.open ?? ((): LineSink => memorySink());
  const ctx: RenderContext = { inp, format, warnings, files, handling, count, valueOf, judged, statusOf, textValues, withText, aggregateSource, open };
  switch (format) {
    case 'askubuntu':
      renderAskubuntu(ctx);
      break;
    case 'qrels':
      renderQrels(ctx);
      break;
    case 'trec-run':
      renderTrecRun(ctx);
      break;
    case 'jsonl':
    case 'csv':
    case 'hf-dataset':
      renderPairs(ctx);
      break;
    case 'semeval-relevancy':
      renderSemevalRelevancy(ctx);
      break;
  }
  return { files, warnings, distribution, labels, queries: queriesWritten.size, handling };
}

/** askubuntu: a line per labeled query (similar ids, the run's candidates and scores), and the corpus file with the text. */
function renderAskubuntu(ctx: RenderContext): void {
  const { inp, format, warnings, files, handling, count, judged } = ctx;
  const run = inp.run!;
  const lines = ctx.open({ run: null });
  let unlabeled = 0;
  let unscored = 0;
  let asNotSimilar = 0;
  /** Candidates per written line: askubuntu-pool reads back only a file whose lines all list the same number. */
  const sizes = new Set<number>();
  const corpusIds: string[] = [];
  for (const q of inp.queries) {
    const m = inp.labels.values.get(q.queryId);
    if (!m || ![...m.values()].some((v) => labelGrade(v) !== null)) {
      unlabeled++;
      continue;
    }
    const r = ranked(q, run);
    unscored += q.candidates.length - r.length;
    const sim = r.filter((x) => {
      const v = m.get(x.id);
      return v !== undefined && isRelevant(v);
    });
    for (const x of r) {
      const v = m.get(x.id);
      if (judged(v)) count(q.queryId, v);
      else asNotSimilar++;
    }
    corpusIds.push(q.queryId, ...r.map((x) => x.id));
    sizes.add(r.length);
    lines.push(
      [
        noSpace(q.queryId, format),
        sim.map((x) => x.id).join(' '),
        r.map((x) => noSpace(x.id, format)).join(' '),
        r.map((x) => formatScore(x.score)).join(' '),
      ].join('\t'),
    );
  }
  if (unlabeled) warnings.push(`${counted(unlabeled, 'query', 'queries')} without a label from ${inp.labels.source} ${unlabeled === 1 ? 'was' : 'were'} left out`);
  if (unscored) warnings.push(`${counted(unscored, 'candidate')} without a score in run ${run.name} ${unscored === 1 ? 'was' : 'were'} left out (the format needs a score per candidate)`);
  if (sizes.size > 1) {
    // A pool whose BM25 found fewer than its depth for some queries: the export wrote a file its own re-import refused.
    warnings.push(
      `the queries list from ${Math.min(...sizes)} to ${Math.max(...sizes)} candidates: \`qpairs import --format askubuntu-pool\` refuses such a file ` +
        `(it reads every line as the same BM25 depth, 20 in the released files), so re-import the jsonl, csv or qrels + trec-run export instead`,
    );
  }
  files.push({ run: null, lines });
  handling.writtenAsNotSimilar = asNotSimilar;
  handling.statement =
    `the askubuntu format has no "unknown": the ${counted(asNotSimilar, 'candidate')} of written queries without a decisive label ` +
    `(unresolved, "?" or unlabeled) ${asNotSimilar === 1 ? 'is listed as a candidate but not as similar, so it reads' : 'are listed as candidates but not as similar, so they read'} back as not similar; ` +
    `queries without any decisive label are left out`;
  if (asNotSimilar) warnings.push(`${counted(asNotSimilar, 'candidate')} without a decisive label from ${inp.labels.source} (unresolved, "?" or unlabeled) ${asNotSimilar === 1 ? 'is' : 'are'} written as not similar (the format has no "unknown")`);
  if (inp.text) {
    const corpus = ctx.open({ run: null, role: 'corpus' });
    const seen = new Set<string>();
    let missing = 0;
    const clean = (t: string): string => t.replace(/[\t\r\n]+/g, ' ');
    for (const id of corpusIds) {
      if (seen.has(id)) continue;
      seen.add(id);
      const t = inp.text.get(id);
      if (!t) {
        missing++;
        continue;
      }
      corpus.push(`${noSpace(id, format)}\t${clean(t.title)}\t${clean(t.body)}`);
    }
    if (missing && corpus.count === 0) warnings.push(`none of the ${counted(missing, 'question')} has text in the workspace: the corpus file is empty (--no-text, or unticking “write the corpus file” in the app, leaves it out)`);
    else if (missing) warnings.push(`${counted(missing, 'question')} ${missing === 1 ? 'has' : 'have'} no text in the workspace and ${missing === 1 ? 'is' : 'are'} not in the corpus file`);
    files.push({ run: null, role: 'corpus', lines: corpus });
  }
}

/** qrels: the judged pairs with their grades. */
function renderQrels(ctx: RenderContext): void {
  const { inp, format, warnings, files, handling, count, valueOf, judged } = ctx;
  const lines = ctx.open({ run: null });
  let skipped = 0;
  for (const q of inp.queries) {
    for (const c of q.candidates) {
      const v = valueOf(q.queryId, c);
      if (!judged(v)) {
        skipped++;
        continue;
      }
      count(q.queryId, v);
      lines.push(`${noSpace(q.queryId, format)} 0 ${noSpace(c, format)} ${labelGrade(v)}`);
    }
  }
  // As semeval-relevancy says it: the export's own report, not only its datasheet, tells that the file is not the whole pool.
  if (skipped) warnings.push(`${counted(skipped, 'pair')} without a label from ${inp.labels.source} ${skipped === 1 ? 'was' : 'were'} left out`);
  files.push({ run: null, lines });
  handling.statement = 'qrels lists judged pairs only: unresolved, "?" and unlabeled pairs are left out (unjudged; trec_eval counts them as not relevant)';
}

/** trec-run: a file per run, its ranking of every query's candidates (the labels counted for the datasheet only). */
function renderTrecRun(ctx: RenderContext): void {
  const { inp, format, warnings, files, handling, count, valueOf, judged } = ctx;
  const runs = inp.run ? [inp.run] : inp.runs;
  for (const run of runs) {
    const tag = run.name.replace(/\s+/g, '_');
    if (tag !== run.name) warnings.push(`run "${run.name}" is tagged "${tag}" (a TREC tag has no white space)`);
    const lines = ctx.open({ run: run.name });
    for (const q of inp.queries) {
      ranked(q, run).forEach((x, i) => lines.push(`${noSpace(q.queryId, format)} Q0 ${noSpace(x.id, format)} ${i + 1} ${formatScore(x.score)} ${tag}`));
    }
    files.push({ run: run.name, lines });
  }
  handling.statement = 'a run file carries no labels: unresolved, "?" and unlabeled pairs are ranked like every candidate';
  // The labels are not part of a run file, but the datasheet describes them.
  for (const q of inp.queries) for (const c of q.candidates) {
    const v = valueOf(q.queryId, c);
    if (judged(v)) count(q.queryId, v);
  }
}

/** jsonl, csv and hf-dataset: every pool pair with its label, grade, status, votes, judge, notes and, asked, the texts. */
function renderPairs(ctx: RenderContext): void {
  const { inp, format, warnings, files, handling, count, valueOf, judged, statusOf, textValues, withText, aggregateSource } = ctx;
  const annotator = exportAnnotatorName(inp.labels.source);
  const aggregate = aggregateSource;
  const nameOf = inp.nameOf ?? ((a: string): string => a);
  const textCols = inp.text ? `,${TEXT_COLUMNS.join(',')}` : '';
  // jsonl/csv carry a notes column when the source has notes in the pool (hf-dataset always: fixed schema).
  const withNotes = (inp.notes?.size ?? 0) > 0;
  const lines = ctx.open({ run: null, role: format === 'hf-dataset' ? 'data' : undefined });
  if (format === 'csv') lines.push(`query_id,candidate_id,annotator,label,grade,relevant,status,votes${withNotes ? ',notes' : ''}${textCols}`);
  let unjudged = 0;
  let unsureGiven = 0;
  for (const q of inp.queries) {
    for (const c of q.candidates) {
      const v = valueOf(q.queryId, c);
      const entry = inp.state.byKey.get(pairKey(q.queryId, c));
      const status = statusOf(q.queryId, c);
      const label = v ?? '?';
      const grade = v === undefined ? null : labelGrade(v);
      if (judged(v)) count(q.queryId, v);
      else {
        unjudged++;
        if (v === UNSURE) unsureGiven++;
      }
      const votes: Record<string, string> = {};
      if (aggregate && entry) {
        for (const x of [...entry.votes, ...entry.unsure].sort((a, b) => inp.state.annotators.indexOf(a.annotator) - inp.state.annotators.indexOf(b.annotator))) {
          votes[nameOf(x.annotator)] = x.value;
        }
      }
      const notes = inp.notes?.get(pairKey(q.queryId, c)) ?? [];
      if (format === 'hf-dataset') {
        // One fixed schema (hfColumns): votes and notes as lists of structs, judge a struct or null.
        const grade1 = grade === null ? null : grade;
        const o: Record<string, unknown> = {
          query_id: q.queryId,
          candidate_id: c,
          annotator,
          label,
          grade: grade1,
          relevant: grade === null ? null : grade >= DEFAULT_RELEVANCE_THRESHOLD,
          status,
          votes: Object.entries(votes).map(([a, x]) => ({ annotator: a, label: x })),
          judge: aggregate && entry?.judge ? { annotator: nameOf(entry.judge.annotator), label: entry.judge.value } : null,
          notes: notes.map((n) => ({ annotator: n.annotator, note: n.note })),
        };
        lines.push(JSON.stringify(withText(o, q.queryId, c)));
      } else if (format !== 'csv') {
        const o: Record<string, unknown> = {
          query_id: q.queryId,
          candidate_id: c,
          annotator,
          label,
          grade,
          relevant: grade === null ? null : grade >= DEFAULT_RELEVANCE_THRESHOLD,
          status,
        };
        if (aggregate) {
          o.votes = votes;
          o.judge = entry?.judge ? { annotator: nameOf(entry.judge.annotator), label: entry.judge.value } : null;
        }
        if (withNotes) o.notes = notes.map((n) => ({ annotator: n.annotator, note: n.note }));
        lines.push(JSON.stringify(withText(o, q.queryId, c)));
      } else {
        const voteText = Object.entries(votes)
          .map(([a, x]) => `${a}=${x}`)
          .join(';');
        // notes: a JSON array of {annotator, note} (free text holds any separator), '' when none.
        const noteText = notes.length ? JSON.stringify(notes.map((n) => ({ annotator: n.annotator, note: n.note }))) : '';
        const row = [q.queryId, c, annotator, label, grade === null ? '' : String(grade), grade === null ? '' : grade >= DEFAULT_RELEVANCE_THRESHOLD ? '1' : '0', status, voteText, ...(withNotes ? [noteText] : [])];
        if (inp.text) row.push(...textValues(q.queryId, c).map((v) => v ?? ''));
        lines.push(row.map(csvField).join(','));
      }
    }
  }
  if (unjudged) {
    // An annotator's own "?" is a label, just not a decisive one: said so, not "no label".
    const said = unsureGiven ? (unjudged === 1 ? ' (a "?" label)' : ` (${unsureGiven} of them "?")`) : '';
    warnings.push(`${counted(unjudged, 'pair')} ${unjudged === 1 ? 'has' : 'have'} no decisive label from ${inp.labels.source}${said} and ${unjudged === 1 ? 'is' : 'are'} written with label "?" (unjudged)`);
  }
  handling.statement =
    'every pool pair is written; a pair without a decisive label is written with label "?" (no grade, relevant empty) and its status: ' +
    (aggregate ? '"unresolved" (the rule gave no value), "unlabeled" (no vote); "?" votes are listed in votes' : '"unsure" (the annotator said "?"), "unlabeled" (no label)');
  files.push({ run: null, role: format === 'hf-dataset' ? 'data' : undefined, lines });
}

/** semeval-relevancy: the judged pairs with the run's rank and score and true/false. */
function renderSemevalRelevancy(ctx: RenderContext): void {
  const { inp, format, warnings, files, handling, count, valueOf, judged } = ctx;
  const run = inp.run;
  const lines = ctx.open({ run: null });
  let skipped = 0;
  for (const q of inp.queries) {
    const rank = new Map<string, number>();
    const scores = run?.scores.get(q.queryId);
    if (run) rankIndices(q.candidates, scores).forEach((i, r) => rank.set(q.candidates[i]!, r + 1));
    q.candidates.forEach((c, i) => {
      const v = valueOf(q.queryId, c);
      if (!judged(v)) {
        skipped++;
        return;
      }
      count(q.queryId, v);
      const score = scores?.get(c);
      lines.push(
        [noSpace(q.queryId, format), noSpace(c, format), String(rank.get(c) ?? i + 1), score === undefined ? '0' : formatScore(score), isRelevant(v) ? 'true' : 'false'].join('\t'),
      );
    });
  }
  if (skipped) warnings.push(`${counted(skipped, 'pair')} without a label from ${inp.labels.source} ${skipped === 1 ? 'was' : 'were'} left out`);
  files.push({ run: null, lines });
  handling.statement = 'judged pairs only: unresolved, "?" and unlabeled pairs are left out (the scorer treats them as not relevant)';
}
