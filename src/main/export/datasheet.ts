/**
 * The datasheet written beside every export (`OUT.datasheet.md`): a markdown description of the
 * gold set — source corpus, pool construction, annotators and assignment, guidelines, dates,
 * label distribution, agreement with bootstrap 95% CIs, and the aggregation rule — after
 * "Datasheets for Datasets" (Gebru et al. 2021), reduced to what the workspace records.
 */
import { counted } from '../../shared/plural';
import { fixedDecimals } from '../../shared/decimals';
import { AGGREGATE, meanRuleText, UNSURE_UNDER_RULE, type AgreementView, type ExportFormat, type IntervalView, type StatView } from '../../shared/gold';
import { DEFAULT_RELEVANCE_THRESHOLD, labelGrade } from '../../shared/labels';
import { aggregationSummary, needsReview, overruledRulings, type PoolState } from '../gold/state';
import type { Workspace } from '../workspace/workspace';
import { shellQuote } from '../workspace/db';
import { describeOverlap, runModelOverlap } from '../training/trained-on';
import { runSelectedOn } from '../training/selected-on';
import { describeSelectedOn } from '../../shared/selected-on';
import { countScored, hasTiedScores } from '../metrics';
import { blindReport, blindStatement } from './blind';
import type { Handling } from './formats';
import { licenceSection, poolImports, workspaceImports } from './licence';
import { queriesWithoutCandidateNote } from '../../shared/pool-notes';
import { REAL_NAMES, type Pseudonyms } from './pseudonyms';

export interface DatasheetInput {
  ws: Workspace;
  state: PoolState;
  format: ExportFormat;
  source: string;
  run: string | null;
  files: Array<{ name: string; lines: number }>;
  /**
   * The output's name, without its folders (OUT's last part, which the re-import command names; for
   * hf-dataset the folder, read as FOLDER/data/pairs.jsonl); names only, as `files`: a serve-mode
   * export shows no server path.
   */
  outName: string;
  distribution: Record<string, number>;
  labels: number;
  queries: number;
  agreement: AgreementView | null;
  /** Why the agreement is missing, or how it was cut down to the work budget (export/index.ts datasheetAgreement). */
  agreementNote?: string | null;
  /** What the format did with unresolved, unsure and unlabeled pairs (formats.ts Handling). */
  handling: Handling;
  /** Whether the export carries question text (jsonl/csv columns, askubuntu corpus file). */
  text: boolean;
  /** Issue 24: notes on labels the export carries (jsonl/csv/hf-dataset; see formats.ts RenderInput.notes). */
  notes?: number;
  warnings: string[];
  /** The source has no label in the pool (an unlabeled pool's default source, gold): the export is a sheet to label. */
  unlabeled?: boolean;
  exportedAt: string;
  version: string;
  /** The names written for people (pseudonyms.ts): their own (default), or A1, A2, … */
  names?: Pseudonyms;
}

/** Formats that carry only decisive labels: the pool's other pairs are left out, or (askubuntu) written as not similar. */
const JUDGED_ONLY: ReadonlySet<ExportFormat> = new Set(['qrels', 'semeval-relevancy', 'askubuntu']);

const CONVENTION_MEANS: Record<'skip' | 'zero', string> = {
  skip: 'a query with no similar candidate is left out of the means, as in the AskUbuntu papers',
  zero: 'a query with no similar candidate counts as 0, as trec_eval -c and the SemEval scorer do',
};

/** The formats that carry question text (unless exported with text off). */
const TEXT_FORMATS: ReadonlySet<ExportFormat> = new Set(['askubuntu', 'jsonl', 'csv', 'hf-dataset']);

/**
 * The command that re-imports the export into a workspace W, with the pool's name and scheme filled
 * in: a labels file imported without the pool's scheme lands in a binary pool (semeval3 when its
 * first label is a SemEval name), where Likert or graded labels are refused, and qrels would make a
 * graded pool of a binary one. It names the files written (names only, shell-quoted, as the files
 * table: a serve-mode export shows no server path): the export itself, trec-run's run files, the
 * hf-dataset folder's pairs.jsonl.
 */
function reimport(format: ExportFormat, pool: string, scheme: string, hasRuns: boolean, outName: string, files: readonly string[]): { command: string; remark: string | null } {
  const p = `--pool ${shellQuote(pool)}`;
  const sc = `--scheme ${scheme}`;
  const out = shellQuote(outName);
  // The command alone goes between backquotes, to be copied as it is; what follows it is said outside
  // (it was "… FILE (then the runs: --format trec-run)" inside the command, which a shell cannot run).
  const runsCommand = hasRuns ? `\`qpairs import W --format trec-run ${p} RUNFILE…\`` : null;
  const runs = runsCommand && `then the runs: ${runsCommand}`;
  switch (format) {
    case 'askubuntu':
      return { command: `qpairs import W --format askubuntu-pool ${p} ${out}`, remark: null };
    case 'qrels':
      return { command: `qpairs import W --format qrels ${p} ${sc} ${out}`, remark: runs };
    case 'trec-run':
      // One file per run when the pool has several and none was chosen.
      return { command: `qpairs import W --format trec-run ${p} ${files.map(shellQuote).join(' ')}`, remark: null };
    case 'jsonl':
      return { command: `qpairs import W --format labels-jsonl ${p} ${sc} ${out}`, remark: runs };
    case 'csv':
      return { command: `qpairs import W --format labels-csv ${p} ${sc} ${out}`, remark: runs };
    case 'semeval-relevancy':
      return { command: `qpairs import W --format semeval-relevancy ${p} ${sc} ${out}`, remark: `the rank and score columns are not read back${runsCommand ? `; the runs come with ${runsCommand}` : ''}` };
    case 'hf-dataset':
      return { command: `qpairs import W --format labels-jsonl ${p} ${sc} ${shellQuote(`${outName}/data/pairs.jsonl`)}`, remark: runs };
  }
}

/**
 * What trec_eval makes of a trec-run export, beside `qpairs eval`: it reads the scores, not the rank
 * column, and orders equal scores by docno descending (`--ties trec-eval`), where the ranks here keep
 * the pool's order (eval's default); and a query the run scores no candidate of is absent from the
 * file, which trec_eval -c counts 0 where eval ranks it in the pool's order. Names the runs and
 * queries where the two differ, so a figure trec_eval gives that eval did not is explained.
 */
function trecEvalNote(ws: Workspace, pool: string, queries: PoolState['queries'], only: string | null): string {
  const tied: string[] = [];
  const absent: string[] = [];
  for (const r of ws.listRuns(pool)) {
    if (only !== null && r.name !== only) continue;
    const scores = ws.runScores(r.id);
    let t = 0;
    let a = 0;
    for (const q of queries) {
      const sc = scores.get(q.queryId);
      if (countScored(q.candidates, sc) === 0) a++;
      else if (hasTiedScores(q.candidates, sc)) t++;
    }
    if (t > 0) tied.push(`${r.name} in ${counted(t, 'query', 'queries')}`);
    if (a > 0) absent.push(`${r.name}: ${counted(a, 'query', 'queries')}`);
  }
  return (
    'With trec_eval: it reads the scores, not the rank column, and orders equal scores by docno descending, as `qpairs eval --ties trec-eval` does; ' +
    "the ranks here keep the pool's order for equal scores, as `qpairs eval` does by default. " +
    (tied.length > 0 ? `Equal scores within a query: ${tied.join(', ')} — there the two orders can differ.` : 'No query here has equal scores, so both orders agree.') +
    (absent.length > 0
      ? ` Queries a run scores no candidate of are absent from its file (${absent.join('; ')}): trec_eval -c counts them 0 and trec_eval without -c leaves them out, where \`qpairs eval\` ranks them in the pool's order and flags it.`
      : '')
  );
}

/** Formats whose aggregate export lists each pair's votes (and judge), which no importer reads back. */
const VOTE_FORMATS: ReadonlySet<ExportFormat> = new Set(['jsonl', 'csv', 'hf-dataset']);

const DESCRIBE: Record<ExportFormat, string> = {
  askubuntu: '`query \\t similar ids \\t candidate ids \\t scores` per query (Lei et al. 2016 dev.txt); candidates ranked by the run, ties in pool order',
  qrels: 'TREC qrels `qid 0 docno grade` (graded), judged pairs only',
  'trec-run': 'TREC run `qid Q0 docno rank score tag`, one file per run; ranks follow scores, ties in pool order',
  jsonl: 'one JSON object per pool pair: query_id, candidate_id, annotator, label, grade, relevant, status, votes, judge (aggregate), notes (when there are notes); label "?" = no label',
  csv: 'RFC 4180 CSV, header query_id,candidate_id,annotator,label,grade,relevant,status,votes[,notes], one row per pool pair; label "?" = no label',
  'semeval-relevancy': 'SemEval Task 3 scorer gold `orgq_id \\t relq_id \\t rank \\t score \\t true|false`; judged pairs only',
  'hf-dataset': 'a Hugging Face–style dataset folder: data/pairs.jsonl (one JSON object per pool pair, with query and candidate title and body, in one fixed schema: votes and notes as lists of {annotator, label|note}, judge {annotator, label} or null) and this README.md as its dataset card, whose features list exactly those columns',
};

/**
 * What an askubuntu export loses on the way back (askubuntu-pool makes a binary pool whose one run is
 * bm25-lucene, with convention skip): the grades, the run's name and the pool's other runs, the text's
 * line breaks; and the corpus file to import first.
 */
function askubuntuDrops(d: DatasheetInput): string {
  const p = d.state.pool;
  const drops: string[] = [];
  if (p.scheme !== 'binary') {
    drops.push(`the grades — the format is binary: the ${p.scheme} labels of grade ${DEFAULT_RELEVANCE_THRESHOLD} or more come back as 1 (similar), the others as 0, in a binary pool`);
  }
  const others = d.ws.runKinds(p.name).map((r) => r.name).filter((r) => r !== d.run);
  if (d.run && d.run !== 'bm25-lucene') drops.push(`the run's name — the scores of ${d.run} come back as run bm25-lucene`);
  if (others.length) drops.push(`the pool's other runs (${others.join(', ')}), which are not in the file: export them with --format trec-run`);
  if (d.text) drops.push('line breaks and tabs in the text, which the corpus file writes as spaces');
  const corpus = d.files[1]?.name;
  return (
    `What the re-import drops: ${drops.length ? drops.join('; ') : 'nothing of the labels and scores'}.` +
    (d.text && corpus ? ` Import the corpus file first (\`qpairs import W --format askubuntu-corpus ${shellQuote(corpus)}\`), or the pool's questions come back as ids only.` : '')
  );
}

function num(s: StatView, digits = 3): string {
  return s.value === null ? `n/a (${s.reason})` : fixedDecimals(s.value, digits);
}

/** An interval, with its note when it says more than how it was made (resamples dropped, one query only), as `qpairs agreement`'s notes do. */
function ci(s: IntervalView, digits = 3): string {
  if (s.value === null) return `n/a (${s.reason})`;
  const note = s.note && !/^percentile bootstrap, \d+ resamples$/.test(s.note) ? ` (${s.note})` : '';
  return `[${fixedDecimals(s.value[0], digits)}, ${fixedDecimals(s.value[1], digits)}]${note}`;
}

function esc(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function table(head: string[], rows: Array<Array<string | number>>): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map((c) => esc(String(c))).join(' | ')} |`)].join('\n');
}

/** What the export holds of the questions' text: none in the format, text off, or how much the workspace had. */
function textStatement(format: ExportFormat, text: boolean, questions: number, withoutText: number): string {
  if (!TEXT_FORMATS.has(format)) return `Question text: not included: the ${format} format holds ids only (jsonl, csv, hf-dataset and askubuntu carry the text).`;
  if (!text) return 'Question text: not included (exported with text off): the set holds ids only.';
  const what = 'query and candidate title and body; the askubuntu export writes its corpus file';
  if (withoutText === 0) return `Question text: included (${what}), so the set can be used without the workspace.`;
  if (withoutText === questions) {
    return `Question text: none — the workspace holds the pool's ${counted(questions, 'question')} as ids only (no text was imported), so the set holds ids only; import their texts to export them.`;
  }
  return `Question text: included where the workspace has it (${what}): ${withoutText} of the pool's ${counted(questions, 'question')} ${withoutText === 1 ? 'is an id' : 'are ids'} only, with no text in the workspace, so the set does not stand alone for those.`;
}

/**
 * What the exported labels are, as the datasheet and the dataset card say it: the aggregate, a person's,
 * the imported gold, a reference system's — or none yet (an unlabeled pool's default source is gold,
 * which it does not have: its card said "Labels: annotator gold").
 */
export function labelSourceText(ws: Workspace, source: string, o: { rule: string; unlabeled: boolean; poolLabeled: boolean; bold?: boolean; names?: Pseudonyms }): string {
  const b = (x: string): string => (o.bold ? `**${(o.names ?? REAL_NAMES).of(x)}**` : (o.names ?? REAL_NAMES).of(x));
  if (source === AGGREGATE) return `the aggregate of the pool's annotators (rule ${b(o.rule)})`;
  const role = ws.listAnnotators().find((a) => a.name === source)?.role;
  if (o.unlabeled) {
    const nobody = o.poolLabeled ? '' : ' and no one has labeled it';
    if (source === 'gold' && (role === undefined || role === 'gold')) return `none yet — the pool has no gold labels${nobody}, so no pair carries a label`;
    return `none — ${role === 'system' ? 'reference system' : 'annotator'} ${b(source)} has no labels in this pool${nobody}, so no pair carries a label`;
  }
  if (role === 'system') return `the labels of reference system ${b(source)} (role system)`;
  if (source === 'gold' || role === 'gold') return `the imported gold labels (annotator ${b(source)})`;
  return `the labels of annotator ${b(source)}`;
}

export function datasheet(d: DatasheetInput): string {
  const { ws, state: s } = d;
  const p = s.pool;
  const out: string[] = [];
  const names = d.names ?? REAL_NAMES;
  const sourceText = labelSourceText(ws, d.source, { rule: s.rule, unlabeled: d.unlabeled ?? false, poolLabeled: s.labels.size > 0, bold: true, names });
  out.push(`# Datasheet: pool "${p.name}" (${d.format} export)`);
  out.push('');
  out.push(`Exported ${d.exportedAt} by QPairs ${d.version}. Labels: ${sourceText}.${d.run ? ` Run: **${d.run}**.` : ''}`);
  out.push('');
  out.push('## Files');
  out.push('');
  out.push(table(['file', 'lines'], d.files.map((f) => [f.name, f.lines])));
  out.push('');
  const back = reimport(d.format, p.name, p.scheme, ws.listRuns(p.name).length > 0, d.outName, d.files.map((f) => f.name));
  out.push(`Format: ${DESCRIBE[d.format]}. Re-import: \`${back.command}\`${back.remark ? `, ${back.remark}` : ''}.`);
  if (d.format === 'trec-run') out.push('', trecEvalNote(d.ws, p.name, s.queries, d.run));
  if (d.format === 'askubuntu') out.push('', askubuntuDrops(d));
  if (d.format === 'semeval-relevancy' && p.scheme !== 'binary') {
    // true|false only: a PerfectMatch (likert 2, grade 3) came back as Relevant (1), a likert -1 as 0, and nothing said so.
    out.push(
      '',
      `What the re-import drops: the grades — the format says only true or false: the ${p.scheme} labels of grade ${DEFAULT_RELEVANCE_THRESHOLD} or more come back as grade 1, ` +
        `the others as grade 0 (the metrics, which count grade ${DEFAULT_RELEVANCE_THRESHOLD} or more as similar, stay the same). The jsonl, csv, hf-dataset and qrels exports keep the grades.`,
    );
  }
  if (d.source === AGGREGATE && VOTE_FORMATS.has(d.format)) {
    // The votes and judge columns document the gold label; the labels importers read only the label column.
    const people = [...s.annotators, ...s.judges].filter((a) => (s.labels.get(a)?.size ?? 0) > 0);
    out.push(
      '',
      `What the re-import drops: the votes and judge columns are not read back — the re-import gives the pool the gold labels (as annotator gold), ` +
        `not its annotators' labels, so agreement and the aggregation rule have nothing to work on there. ` +
        (people.length
          ? `To carry them, export each person's labels too (\`--annotator NAME${names.replaced ? ' --pseudonymize' : ''}\`, one file each: ${names.replaced ? `${people.map(names.of).join(', ')}, under their names in the workspace` : people.join(', ')}) and import those files as well.`
          : 'No annotator of the pool has labels yet.'),
    );
  }
  // The convention lives with the pool, not in the files: a re-import into a new pool gets the default.
  const convention = p.convention ?? 'zero';
  // Formats without "unknown" leave out (qrels, semeval-relevancy) or write as not similar (askubuntu) the pairs
  // without a decisive label: a pool re-imported from them is not this pool, and its metrics can differ.
  const pairs = s.queries.reduce((n, q) => n + q.candidates.length, 0);
  const notCarried = JUDGED_ONLY.has(d.format) ? pairs - d.labels : 0;
  out.push(
    '',
    `Evaluation convention of this pool: **${convention}** (${CONVENTION_MEANS[convention]}). The files do not carry it: ` +
      `after a re-import into a new pool, \`qpairs pool set W --pool ${shellQuote(p.name)} --convention ${convention}\` gives the same metrics` +
      (notCarried > 0
        ? ` only when the file holds the whole pool, and this one does not: ${notCarried} of the pool's ${counted(pairs, 'pair')} ${notCarried === 1 ? 'has' : 'have'} no decisive label and ${notCarried === 1 ? 'is' : 'are'} ` +
          `${d.format === 'askubuntu' ? 'written as not similar or left out' : 'left out'} (see below), so a pool re-imported from it differs from this one, ` +
          `and so can its metrics (jsonl, csv and hf-dataset keep every pair).`
        : '.'),
  );
  const sources = questionSources(ws, s);
  out.push('');
  out.push(textStatement(d.format, d.text, sources.ids.size, sources.withoutText));
  if (d.notes !== undefined && (d.format === 'hf-dataset' || (d.notes > 0 && (d.format === 'jsonl' || d.format === 'csv')))) {
    out.push('');
    out.push(
      `Notes: ${d.notes} note${d.notes === 1 ? '' : 's'} on labels (${d.source === AGGREGATE || d.source === 'gold' ? "every annotator's notes and the judges' reasons for their rulings" : `annotator ${names.of(d.source)}'s own notes`}), ` +
        `in the \`notes\` ${d.format === 'csv' ? 'column as a JSON array of {"annotator", "note"} (empty when none)' : 'field as a list of {annotator, note}'}; a re-import restores them under their annotators.`,
    );
  }
  out.push(...unresolvedPairsSection(d));
  out.push(...sourceCorpusSection(d, sources));
  out.push(...poolConstructionSection(d));
  out.push(...annotatorsSection(d));
  out.push(...guidelinesSection(d));
  out.push(...datesSection(d));
  out.push(...labelDistributionSection(d));
  out.push(...agreementSection(d));
  out.push(...aggregationSection(d, sourceText));
  out.push('');
  return out.join('\n');
}

/** The pool's distinct questions (queries and candidates) and their sources; those the workspace holds as ids only (no text to export) counted apart. */
interface QuestionSources {
  ids: ReadonlySet<string>;
  bySource: ReadonlyMap<string, number>;
  withoutText: number;
}

function questionSources(ws: Workspace, s: PoolState): QuestionSources {
  const ids = new Set<string>();
  for (const q of s.queries) {
    ids.add(q.queryId);
    for (const c of q.candidates) ids.add(c);
  }
  const bySource = new Map<string, number>();
  // Sources only: reading every question's text here took as long as the export's own text.
  const sourceOf = ws.db.prepare(`SELECT source FROM questions WHERE id = ?`).pluck();
  for (const id of ids) {
    const src = sourceOf.get(id) as string | undefined;
    if (src !== undefined) bySource.set(src, (bySource.get(src) ?? 0) + 1);
  }
  const withoutText = ids.size - [...bySource.values()].reduce((a, b) => a + b, 0);
  return { ids, bySource, withoutText };
}

/** ## Unresolved and unsure pairs: the pairs without a value, "?" labels and unlabeled pairs, and what the format did with them. */
function unresolvedPairsSection(d: DatasheetInput): string[] {
  const { state: s } = d;
  const out: string[] = [];
  out.push('');
  out.push('## Unresolved, unsure and unlabeled pairs');
  out.push('');
  const h = d.handling;
  out.push(
    table(
      ['pairs', 'count'],
      [
        ['unresolved (the rule gave no value)', h.unresolved],
        ['with a "?" (unsure) label or vote', h.unsure],
        ['… of which still without a value', h.unsureUnresolved],
        ['unlabeled', h.unlabeled],
        ...(h.writtenAsNotSimilar !== undefined ? [['written as not similar (askubuntu)', h.writtenAsNotSimilar] as Array<string | number>] : []),
      ],
    ),
  );
  out.push('');
  out.push(`In this ${d.format} export: ${h.statement}.`);
  if (d.source === AGGREGATE) out.push(`Under the rule **${s.rule}**, "?" counts thus: ${UNSURE_UNDER_RULE[s.rule]}.`);
  if (d.warnings.length) {
    out.push('');
    for (const w of d.warnings) out.push(`- Note: ${w}`);
  }
  return out;
}

/** ## Source corpus: the pool's distinct questions by source (those without text counted apart) and the workspace's imports. */
function sourceCorpusSection(d: DatasheetInput, q: QuestionSources): string[] {
  const { ws } = d;
  const { ids, bySource, withoutText } = q;
  const out: string[] = [];
  out.push('');
  out.push('## Source corpus');
  out.push('');
  out.push(`${counted(ids.size, 'distinct question')} in the pool (queries and candidates).`);
  out.push('');
  const srcRows: Array<Array<string | number>> = [...bySource].sort().map(([k, n]) => [k, n]);
  if (withoutText) srcRows.push(['(id only, no text in the workspace)', withoutText]);
  out.push(table(['question source', 'questions'], srcRows));
  // An import that wrote nothing (a file re-imported as the workspace held it) is not where any data came from:
  // it is counted, not listed, so it takes none of the 20 rows from the imports that brought data.
  // An undo (`qpairs import undo`) took its import's rows and audit row back out: counted, not listed as a format.
  const { data: recorded, undone, unchanged, all } = workspaceImports(ws);
  // A file named after its annotator (alice.csv) names them too: A1.csv when names are replaced.
  const names = d.names ?? REAL_NAMES;
  const imports = names.replaced ? recorded.map((i) => ({ ...i, files: i.files.map((f) => names.inText(f.split(/[\\/]/).pop() ?? f)) })) : recorded;
  if (all) {
    out.push('');
    out.push('Imports into the workspace:');
    out.push('');
    const shown = imports.slice(-20);
    if (shown.length) out.push(table(['at', 'format', 'files'], shown.map((i) => [i.at, i.format, i.files.map((f) => f.split(/[\\/]/).pop()).join(', ')])));
    if (imports.length > shown.length) out.push(`\n(${imports.length - shown.length} earlier imports not shown)`);
    if (unchanged) out.push(`${shown.length ? '\n' : ''}(${counted(unchanged, 're-import')} that changed nothing — each file as the workspace held it already — not listed)`);
    if (undone) out.push(`${shown.length || unchanged ? '\n' : ''}(${counted(undone, 'import')} undone since — its rows and its line here taken back out)`);
  }
  out.push(...licenceSection(poolImports(imports, d.state.pool.name, new Set(bySource.keys())), imports));
  return out;
}

/** ## Pool construction: how the pool was made (scheme, retriever, depth, sampling) and its runs; runs of models trained on its queries flagged. */
function poolConstructionSection(d: DatasheetInput): string[] {
  const { ws, state: s } = d;
  const p = s.pool;
  const out: string[] = [];
  out.push('');
  out.push('## Pool construction');
  out.push('');
  const runs = ws.listRuns(p.name);
  out.push(
    table(
      ['property', 'value'],
      [
        ['label scheme', `${p.scheme} (relevant: grade ≥ ${DEFAULT_RELEVANCE_THRESHOLD})`],
        ['retriever', p.retriever ?? 'not recorded'],
        ['depth', p.depth ?? 'not recorded'],
        ['query sampling', p.sampling ?? 'not recorded'],
        ['queries', p.queries],
        ['pairs', p.pairs],
        ['created', p.created],
        ['runs', runs.map((r) => `${r.name} (${r.kind}, ${counted(r.pairs, 'score')})`).join('; ') || 'none'],
      ],
    ),
  );
  // A query BM25 found no candidate for is in the pool (its count above) and in no file: no pair, no row.
  const emptyIds = s.queries.filter((q) => q.candidates.length === 0).map((q) => q.queryId);
  const empty = queriesWithoutCandidateNote(emptyIds, p.queries);
  if (empty) out.push('', `Note: ${empty}; the files have no row for ${emptyIds.length === 1 ? 'it' : 'them'}.`);
  // Runs scored by a model that was trained on some of these queries are not held-out figures
  // (its out-of-fold scores are: the fold models never saw those queries, as eval counts them).
  const poolQueryIds = s.queries.map((q) => q.queryId);
  for (const r of runs) {
    if (r.kind !== 'model') continue;
    const o = runModelOverlap(ws, p.name, r.name, poolQueryIds);
    if (o && o.trainedOn > 0) out.push('', `Run ${r.name}: its model was ${describeOverlap(o)} (this pool's queries); its scores on them are not held out.`);
    // A model chosen on this pool (its dev pool, its CV's out-of-fold queries): its figures here are optimistic.
    const chosen = runSelectedOn(ws, p.name, r.name, poolQueryIds);
    if (chosen) out.push('', `Run ${r.name}: its model was ${describeSelectedOn(r.name, chosen)}; its figures on this pool are optimistic, not held out.`);
  }
  return out;
}

/** ## Annotators: assignment, blind labeling, and every person who labeled in the pool with their role and dates. */
function annotatorsSection(d: DatasheetInput): string[] {
  const { ws, state: s } = d;
  const p = s.pool;
  const out: string[] = [];
  out.push('');
  out.push('## Annotators');
  out.push('');
  const roles = new Map(ws.listAnnotators().map((a) => [a.name, a.role]));
  const plan = s.plan;
  out.push(
    plan.mode === 'open'
      ? 'No assignment recorded: the pool\'s annotators are those (role "annotator") who labeled in it.'
      : plan.mode === 'full'
        ? `Assigned with full overlap: every annotator labels every query.`
        : `Assigned with ${plan.perQuery} annotator${plan.perQuery === 1 ? '' : 's'} per query (seeded, balanced; seed ${plan.seed}).`,
  );
  out.push('');
  out.push(`**Blind labeling.** ${blindStatement(blindReport(ws, p.name))}`);
  const names = d.names ?? REAL_NAMES;
  if (names.replaced) {
    out.push('');
    out.push(
      `**Names replaced.** Every person's name in this export — label columns, votes, judges, notes and their text, the guidelines, this datasheet — is a pseudonym: ` +
        `the workspace's ${counted(names.people, 'person', 'people')} are A1, A2, … in the order the workspace first knew them, the same in every export of it (a judge keeps their one pseudonym). ` +
        'The questions\' text is written as it is.',
    );
  }
  out.push('');
  const dates = ws
    .stmt(
      `SELECT a.name AS annotator, count(*) AS events, min(l.at) AS first, max(l.at) AS last FROM labels l JOIN annotators a ON a.id = l.annotator_id
       WHERE l.pool_id = ? GROUP BY a.name ORDER BY min(l.seq)`,
    )
    .all(p.id) as Array<{ annotator: string; events: number; first: string; last: string }>;
  // Every current label, "?" included: the per-annotator table under Label distribution ("current labels") counts them too.
  const current = new Map<string, number>();
  for (const [a, m] of s.labels) current.set(a, m.size);
  out.push(
    table(
      ['annotator', 'role', 'in this pool', 'current labels', 'label events', 'first label', 'last label'],
      dates.map((r) => [
        names.of(r.annotator),
        roles.get(r.annotator) ?? '',
        s.annotators.includes(r.annotator) ? 'annotator' : s.judges.includes(r.annotator) ? 'judge' : roles.get(r.annotator) === 'gold' ? 'gold' : 'other',
        current.get(r.annotator) ?? 0,
        r.events,
        r.first,
        r.last,
      ]),
    ),
  );

  // Roles live in the workspace: a judge's labels re-imported elsewhere arrive as an annotator's votes.
  const ruling = s.judges.filter((j) => (s.labels.get(j)?.size ?? 0) > 0);
  if (ruling.length) {
    out.push(
      '',
      `Roles are not in the files: a judge's own labels (\`--annotator ${names.of(ruling[0]!)}\`) re-imported into another workspace arrive as an annotator's, and count as votes. ` +
        `There, \`qpairs annotators role W NAME judge\` for ${ruling.map(names.of).join(', ')} gives back the same aggregation and agreement.`,
    );
  }
  return out;
}

/** ## Guidelines: the pool's guidelines, quoted. */
function guidelinesSection(d: DatasheetInput): string[] {
  const { state: s } = d;
  const p = s.pool;
  const out: string[] = [];
  out.push('');
  out.push('## Guidelines');
  out.push('');
  out.push(p.guidelines.trim() ? (d.names ?? REAL_NAMES).inText(p.guidelines.trim()).split('\n').map((l) => `> ${l}`).join('\n') : '(no guidelines recorded for this pool)');
  return out;
}

/** ## Dates: when the pool was made, labeled and exported. */
function datesSection(d: DatasheetInput): string[] {
  const { ws, state: s } = d;
  const p = s.pool;
  const out: string[] = [];
  out.push('');
  out.push('## Dates');
  out.push('');
  const span = ws.stmt(`SELECT min(at) AS first, max(at) AS last FROM labels WHERE pool_id = ?`).get(p.id) as { first: string | null; last: string | null };
  out.push(`Pool created ${p.created}; labels given from ${span.first ?? '—'} to ${span.last ?? '—'}; exported ${d.exportedAt}.`);
  return out;
}

/** ## Label distribution: the exported labels by value, and each annotator's current labels. */
function labelDistributionSection(d: DatasheetInput): string[] {
  const { state: s } = d;
  const out: string[] = [];
  out.push('');
  out.push('## Label distribution');
  out.push('');
  const values = Object.keys(d.distribution).sort((a, b) => (labelGrade(b) ?? 0) - (labelGrade(a) ?? 0));
  const relevant = values.filter((v) => (labelGrade(v) ?? -Infinity) >= DEFAULT_RELEVANCE_THRESHOLD).reduce((n, v) => n + d.distribution[v]!, 0);
  out.push(`${counted(d.labels, 'exported label')} over ${counted(d.queries, 'query', 'queries')}; ${relevant} relevant (${d.labels ? ((100 * relevant) / d.labels).toFixed(1) : '0.0'}%).`);
  out.push('');
  out.push(table(['label', 'grade', 'pairs'], values.map((v) => [v, labelGrade(v) ?? '', d.distribution[v]!])));
  if (s.annotators.length > 0) {
    out.push('');
    out.push('Per annotator (current labels):');
    out.push('');
    const cats = new Set<string>();
    const per = s.annotators.map((a) => {
      const m: Record<string, number> = {};
      for (const l of s.labels.get(a)?.values() ?? []) {
        m[l.value] = (m[l.value] ?? 0) + 1;
        cats.add(l.value);
      }
      return { a, m };
    });
    const cs = [...cats].sort((x, y) => (labelGrade(y) ?? -99) - (labelGrade(x) ?? -99));
    out.push(table(['annotator', ...cs], per.map(({ a, m }) => [(d.names ?? REAL_NAMES).of(a), ...cs.map((c) => m[c] ?? 0)])));
  }
  return out;
}

/** ## Agreement: agreement statistics with their bootstrap 95% CIs, pooled and per pair of annotators. */
function agreementSection(d: DatasheetInput): string[] {
  const { state: s } = d;
  const out: string[] = [];
  out.push('');
  out.push('## Agreement');
  out.push('');
  const ag = d.agreement;
  if (!ag) {
    out.push(
      d.agreementNote ?? `Not applicable: the pool has ${s.annotators.length} annotator${s.annotators.length === 1 ? '' : 's'} (agreement needs two).`,
    );
  } else {
    out.push(
      `${counted(ag.annotators.length, 'annotator')} (${ag.annotators.map((d.names ?? REAL_NAMES).of).join(', ')}), ${counted(ag.items, 'labeled pair')} in ${counted(ag.queries, 'query', 'queries')}` +
        // As `qpairs agreement` and the Agreement screen say: the statistics count a "?" as no label.
        (ag.unsure > 0 ? `; ${counted(ag.unsure, '"?" (unsure) label')} left out (a "?" counts as no label here)` : '') +
        '. ' +
        `95% CIs: percentile bootstrap over queries, ${counted(ag.bootstrap.resamples, 'resample')}, seed ${ag.bootstrap.seed}.` +
        (d.agreementNote ? ` ${d.agreementNote}` : ''),
    );
    out.push('');
    out.push(
      table(
        ['statistic', 'value', '95% CI'],
        [
          ['percent agreement (pooled pairwise)', num(ag.percentAgreement), ci(ag.ci95.percentAgreement)],
          ["Fleiss' kappa", num(ag.fleissKappa) + (ag.fleissKappa.value !== null && ag.fleissKappa.note ? ` (${ag.fleissKappa.note})` : ''), ci(ag.ci95.fleissKappa)],
          ["Krippendorff's alpha (nominal)", num(ag.krippendorffAlpha.nominal), ci(ag.ci95.krippendorffAlpha)],
          ["Krippendorff's alpha (ordinal)", num(ag.krippendorffAlpha.ordinal), ci(ag.ci95.krippendorffAlphaOrdinal)],
          ["Krippendorff's alpha (interval)", num(ag.krippendorffAlpha.interval), ci(ag.ci95.krippendorffAlphaInterval)],
          ["Gwet's AC1", num(ag.gwetAC1), ci(ag.ci95.gwetAC1)],
        ],
      ),
    );
    out.push('');
    out.push(
      table(
        ['pair', 'items', 'agreement', "Cohen's kappa", '95% CI', 'linear', 'quadratic', 'PSA', 'NSA'],
        ag.pairs.map((x) => [
          `${(d.names ?? REAL_NAMES).of(x.a)} – ${(d.names ?? REAL_NAMES).of(x.b)}`,
          x.items,
          num(x.percentAgreement),
          num(x.cohenKappa),
          ci(x.ci95),
          num(x.cohenKappaLinear),
          num(x.cohenKappaQuadratic),
          num(x.psa),
          num(x.nsa),
        ]),
      ),
    );
  }
  return out;
}

/** ## Aggregation: the aggregation rule and what it gave, or why there is none. */
function aggregationSection(d: DatasheetInput, sourceText: string): string[] {
  const { state: s } = d;
  const out: string[] = [];
  out.push('');
  out.push('## Aggregation');
  out.push('');
  if (d.source !== AGGREGATE) {
    out.push(d.unlabeled ? 'No aggregation: the export carries no labels.' : `No aggregation: the exported labels are ${sourceText}, as given.`);
  } else {
    const sum = aggregationSummary(s);
    const rules: Record<string, string> = {
      adjudicated: "agreed labels as given; each disagreement or pair with a \"?\" takes the judge's label (unresolved until settled)",
      majority: "agreed labels as given; a disagreement or pair with a \"?\" takes the judge's label when settled, else the strict majority of all votes, \"?\" counting as a vote for no value (ties unresolved)",
      mean: meanRuleText(s.threshold),
      unanimous: 'only pairs every assigned annotator labeled alike, none "?"; the others are unresolved; judges ignored',
    };
    out.push(`Rule **${s.rule}**: ${rules[s.rule]}. Judges: ${s.judges.map((d.names ?? REAL_NAMES).of).join(', ') || 'none'}.`);
    out.push('');
    out.push(
      table(
        ['pairs', 'count'],
        [
          ['in the pool', sum.pairs],
          ['with a vote', sum.labeled],
          ['agreed', sum.byStatus.agreed],
          ['majority', sum.byStatus.majority],
          ['mean rule', sum.byStatus.mean],
          ['settled by a judge', sum.byStatus.adjudicated],
          ['unresolved (not exported as labels)', sum.unresolved],
          ['disagreements (settled)', `${sum.disagreements} (${sum.settled})`],
          ['with a "?" vote (settled, unresolved)', `${sum.unsure.pairs} (${sum.unsure.settled}, ${sum.unsure.unresolved})`],
        ],
      ),
    );
    // A pair resolved from some of its annotators' votes (labeling not done): one vote of three read "agreed", with no word.
    const partial = s.pairs.filter((x) => x.resolution.value !== null && !x.complete);
    if (partial.length) {
      const byStatus = new Map<string, number>();
      for (const x of partial) byStatus.set(x.resolution.status, (byStatus.get(x.resolution.status) ?? 0) + 1);
      const single = partial.filter((x) => x.votes.length + x.unsure.length === 1).length;
      out.push(
        '',
        `${counted(partial.length, 'resolved pair lacks', 'resolved pairs lack')} the votes of some of the annotators assigned to ${partial.length === 1 ? 'it' : 'them'} ` +
          `(labeling not done): the rule takes the votes given so far, so "agreed" there means only that those votes agree — ` +
          `${[...byStatus].map(([st, n]) => `${st === 'adjudicated' ? 'settled by a judge' : st} ${n}`).join(', ')}; ${counted(single, 'pair has', 'pairs have')} a single vote.`,
      );
    }
    // A ruling outdated by a vote given after it counts for nothing: without this line the judges' rulings seemed to vanish from the counts.
    // Only those in dispute wait in Review: a vote that ended the dispute (the votes agree now) leaves the ruling on an agreed pair.
    const outdated = s.pairs.filter((x) => x.outdatedRuling && needsReview(x)).length;
    const moot = s.pairs.filter((x) => x.outdatedRuling && !needsReview(x)).length;
    if (moot) {
      out.push(
        '',
        `${counted(moot, 'ruling is', 'rulings are')} on ${moot === 1 ? 'a pair' : 'pairs'} no longer in dispute: an annotator changed a vote after the judge ruled and the votes now agree, ` +
          `so the agreed label counts, not the ruling (not in "settled by a judge").`,
      );
    }
    if (outdated) {
      out.push(
        '',
        `${counted(outdated, 'ruling is', 'rulings are')} outdated: an annotator changed or added a vote after the judge ruled, so ${outdated === 1 ? 'it does' : 'they do'} not count ` +
          `(not in "settled by a judge"); ${outdated === 1 ? 'its pair waits' : 'their pairs wait'} in Review for a judge to rule again.`,
      );
    }
    // Two judges who ruled differently on one pair: the later ruling counts, and the row names that judge alone.
    const overruled = s.pairs.filter((x) => overruledRulings(d.ws, s, x).length > 0).length;
    if (overruled) {
      out.push(
        '',
        `${counted(overruled, 'settled pair holds', 'settled pairs hold')} another judge's different ruling, given before the one that counts: ` +
          `the latest ruling settles a pair (the rows' judge), and the overruled judge's reason, if any, is among the pair's notes.`,
      );
    }
    // A judge's label given before they judged the pool (a vote of theirs, then left out of the assignment or made a judge) settles nothing.
    const heldBy = s.pairs.filter((x) => x.judgeEarlierVote && needsReview(x));
    const earlier = heldBy.length;
    if (earlier) {
      // Whether another judge has settled them since: the label itself never does.
      const settled = heldBy.filter((x) => x.judge).length;
      const waits =
        settled === earlier
          ? `another judge settled ${earlier === 1 ? 'it' : 'them'}`
          : settled === 0
            ? `${earlier === 1 ? 'it waits' : 'they wait'} in Review for another judge`
            : `another judge settled ${settled} of them, the others wait in Review`;
      out.push(
        '',
        `${counted(earlier, 'pair in dispute holds', 'pairs in dispute hold')} a judge's label given before that person judged the pool (as one of its annotators): ` +
          `not a ruling — who voted on a pair is no third judge of it; ${waits}.`,
      );
    }
  }
  return out;
}
