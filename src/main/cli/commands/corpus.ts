import { SUBCOMMANDS } from '../usage';
import { closeSync, existsSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ANALYZER_NAMES, ANALYZERS, isAnalyzerName } from '../../bm25/analyzers';
import { Bm25Index } from '../../bm25/bm25-index';
import { CORPUS_FORMATS, corpusLines, isCorpusFormat } from '../../bm25/corpus-export';
import { rebuildIndex } from '../../engine/streaming-indexer';
import { QPairsError, yieldThenThrowIfAborted } from '../../errors';
import { checkWriteTarget, whyCannotWrite, writeAllSync } from '../../export/write';
import { parse, requireString, takePositionals, UsageError } from '../args';
import { didYouMean, subcommandError, unknownChoice } from '../../../shared/suggest';
import { questionSources } from '../../engine/work';
import { ProgressBar } from '../progress';
import { closeWorkspace, json, openWorkspace, type Out } from './common';

/**
 * `qpairs corpus export W --format tsv|jsonl OUT [--source S] [--force] [--json]`: the questions'
 * texts as the BM25 index reads them (bm25/corpus-export.ts), streamed to a temporary file renamed
 * onto OUT (`-`: standard output). An existing OUT is never replaced unless --force (as export).
 * `qpairs corpus index W [--analyzer NAME] [--json]`: rebuilds the workspace's BM25 index, with
 * analyzer NAME from then on (default: the one it has; see bm25/analyzers.ts).
 */
export async function cmdCorpus(argv: string[], out: Out, signal?: AbortSignal): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'export') return corpusExport(rest, out, signal);
  if (sub === 'index') return corpusIndex(rest, out, signal);
  throw new UsageError(sub === undefined ? 'usage: qpairs corpus export W --format tsv|jsonl OUT | qpairs corpus index W [--analyzer NAME]' : subcommandError('corpus', sub, SUBCOMMANDS.corpus!));
}

async function corpusExport(argv: string[], out: Out, signal?: AbortSignal): Promise<number> {
  const { values, positionals } = parse(argv, { format: { type: 'string', short: 'f' }, source: { type: 'string' }, force: { type: 'boolean' }, json: { type: 'boolean' } });
  const format = requireString(values.format, '--format tsv|jsonl');
  if (!isCorpusFormat(format)) throw new UsageError(unknownChoice('corpus format', format, CORPUS_FORMATS, 'formats'));
  const [w, target] = positionals;
  if (!target) throw new UsageError('corpus export needs an output file OUT (or - for standard output)');
  takePositionals(positionals, ['W', 'OUT'], 'corpus export');
  // Standard output carries the corpus: the summary --json prints there was dropped in silence.
  if (target === '-' && values.json) throw new UsageError('--json goes with an output file: with - the corpus itself is written to standard output');
  const ws = openWorkspace(w, { out });
  try {
    if (values.source !== undefined) {
      // A source the workspace lacks (a typo) exported an empty file and said "exported 0 questions", exit 0.
      const sources = questionSources(ws).map((s) => s.source);
      if (!sources.includes(values.source)) {
        throw new QPairsError(
          `no questions of source "${values.source}" in the workspace (${didYouMean(values.source, sources)}sources: ${sources.join(', ') || 'none'}); nothing was written`,
        );
      }
    }
    const lines = corpusLines(ws.db, format, values.source);
    if (target === '-') {
      try {
        for (const chunk of batches(lines)) {
          writeAllWaiting(1, chunk);
          await betweenChunks(signal);
        }
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EPIPE') throw e; // the reader stopped (e.g. | head)
      }
      return 0;
    }
    checkWriteTarget(target, { protect: [ws.path] });
    refuseToReplace(target, values.force);
    const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    let fd: number;
    try {
      fd = openSync(tmp, 'wx');
    } catch (e) {
      throw new QPairsError(`cannot write ${target}: ${whyCannotWrite(target, e)}; nothing was written`, { file: target });
    }
    let n = 0;
    const counted = function* (): Generator<string> {
      for (const l of lines) {
        n++;
        yield l;
      }
    };
    try {
      for (const chunk of batches(counted())) {
        writeAllSync(fd, chunk);
        await betweenChunks(signal);
      }
      fsyncSync(fd);
      closeSync(fd);
      checkWriteTarget(target, { protect: [ws.path] });
      refuseToReplace(target, values.force); // made meanwhile
      renameSync(tmp, target);
    } catch (e) {
      try {
        closeSync(fd);
      } catch {
        /* already closed */
      }
      try {
        unlinkSync(tmp);
      } catch {
        /* not there */
      }
      throw e;
    }
    if (values.json) out.log(json({ file: target, format, questions: n, source: values.source ?? null }));
    else out.log(`exported ${n} questions${values.source !== undefined ? ` of source ${values.source}` : ''} to ${target} (${format})`);
    return 0;
  } finally {
    ws.close();
  }
}

/**
 * Between two chunks of the export: lets a Ctrl-C (SIGINT, SIGTERM, SIGHUP: main's signal) be
 * heard, and stops the export once it is. The loop was synchronous and Ctrl-C ended the process
 * on the spot, leaving its temporary file (`.OUT.PID.HEX.tmp`, up to the whole corpus) beside OUT;
 * now the catch below removes it and the command ends "cancelled", exit 130.
 */
async function betweenChunks(signal: AbortSignal | undefined): Promise<void> {
  if (signal) await yieldThenThrowIfAborted(signal);
}

/** Throws unless `target` is free to write or `force` says to replace it (the wording of export's refusal). */
function refuseToReplace(target: string, force: boolean | undefined): void {
  if (force || !existsSync(target)) return;
  throw new QPairsError(`refusing to overwrite an existing file: ${target}; nothing was written (choose another output, or give --force to replace it)`, { file: target });
}

/**
 * writeAllSync onto a descriptor that may be non-blocking, as standard output is when it is a pipe or
 * a socket Node has opened: a reader slower than the writer (`qpairs corpus export W --format tsv - |
 * sort`) fills the pipe and the write fails with EAGAIN — that cut the output short with an error.
 * Here a full pipe is waited on (a few ms at a time) until the reader takes more; EPIPE (the reader
 * went away) and other errors still throw.
 */
function writeAllWaiting(fd: number, data: string): void {
  const buf = Buffer.from(data, 'utf8');
  let off = 0;
  while (off < buf.length) {
    let n: number;
    try {
      n = writeSync(fd, buf, off, buf.length - off);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Atomics.wait(pause, 0, 0, 5);
      continue;
    }
    if (n <= 0) throw Object.assign(new Error(`ENOSPC: no space left on device, write (${off} of ${buf.length} bytes written)`), { code: 'ENOSPC' });
    off += n;
  }
}
const pause = new Int32Array(new SharedArrayBuffer(4));

/** Lines joined into chunks of 4096 lines, each line ending in a newline. */
function* batches(lines: Iterable<string>): Generator<string> {
  let buf: string[] = [];
  for (const l of lines) {
    buf.push(l);
    if (buf.length === 4096) {
      yield buf.join('\n') + '\n';
      buf = [];
    }
  }
  if (buf.length) yield buf.join('\n') + '\n';
}

async function corpusIndex(argv: string[], out: Out, signal?: AbortSignal): Promise<number> {
  const { values, positionals } = parse(argv, { analyzer: { type: 'string' }, json: { type: 'boolean' } });
  takePositionals(positionals, ['W'], 'corpus index');
  const analyzer = values.analyzer;
  if (analyzer !== undefined && !isAnalyzerName(analyzer)) throw new UsageError(unknownChoice('analyzer', analyzer, ANALYZER_NAMES));
  const ws = openWorkspace(positionals[0], { write: 'corpus index', out });
  const bar = new ProgressBar('indexing');
  try {
    const chosen = analyzer ?? Bm25Index.storedAnalyzer(ws.db);
    const r = await rebuildIndex(ws, chosen, { onProgress: (d, t) => bar.update(d, t), signal });
    bar.done();
    if (values.json) out.log(json({ analyzer: chosen, lucene: ANALYZERS[chosen].lucene, questions: r.questions, postings: r.postings, segments: r.segments, bytes: r.bytes }));
    else out.log(`indexed ${r.questions} questions with analyzer ${chosen} (${ANALYZERS[chosen].lucene}): ${r.postings} postings in ${r.segments} segment${r.segments === 1 ? '' : 's'}`);
    return 0;
  } finally {
    bar.done();
    closeWorkspace(ws);
  }
}
