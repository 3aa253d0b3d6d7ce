/**
 * A synthetic Stack Exchange data dump of N questions, shaped like the real ones: Posts.xml (questions
 * with Title, HTML Body, Tags, OwnerUserId, CreationDate; answers with ParentId) and PostLinks.xml
 * (duplicate and "linked" links), in the dump's exact format (UTF-8 BOM, `<row … />` lines,
 * entity-escaped attributes, `&#xA;` newlines), written as a stream so memory stays flat at any N.
 *
 * Text is recombined real text (readRealTexts: SemEval-2016 + cstheory-meta): a title is a real
 * title, a body is real sentences drawn at random until the length of a real body drawn at random
 * is reached, answers likewise from real answers and comments, so word, length and punctuation
 * distributions (URLs, numbers, code-ish tokens) are the real ones. Words seen once in the real
 * data are each replaced by a word of a synthetic Zipf(1) tail over 2M words, so the vocabulary
 * keeps growing with N as real text does (Heaps' law) instead of saturating at the sample's.
 * Answers per question: Poisson with the cstheory dump's mean (2.24); tags: 1–4 real tags;
 * owners: Zipf over N/4 users; 1% of questions get a duplicate link to an earlier question, 2% a
 * "linked" link. Seeded: the same arguments write byte-identical files.
 *
 *   node out/node/gen-se-dump.mjs --questions 1000000 --out DIR [--seed 7] [--answers-per-question 2.24]
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { readRealTexts, type RealTexts } from './real-text';
import { checkOptions, exitOnUsageError } from './bench-options';
import { mulberry32 } from '../../src/main/stats/random';

export interface DumpOptions {
  questions: number;
  dir: string;
  seed?: number;
  /** Mean answers per question (default: the real dump's ratio). 0 writes no answers. */
  answersPerQuestion?: number;
  onProgress?: (written: number, total: number) => void;
}

export interface DumpSummary {
  postsFile: string;
  linksFile: string;
  questions: number;
  answers: number;
  duplicateLinks: number;
  /** Post ids of the questions, in order. */
  questionIds: Int32Array;
  bytes: number;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** Buffered writes straight to a file descriptor (no stream backpressure to manage). */
export class FileSink {
  private fd: number;
  private parts: string[] = [];
  private size = 0;
  bytes = 0;
  constructor(file: string) {
    this.fd = openSync(file, 'w');
  }
  write(s: string): void {
    this.parts.push(s);
    this.size += s.length;
    if (this.size > 1 << 20) this.flush();
  }
  flush(): void {
    if (this.parts.length === 0) return;
    const buf = Buffer.from(this.parts.join(''), 'utf8');
    writeSync(this.fd, buf);
    this.bytes += buf.length;
    this.parts = [];
    this.size = 0;
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

const attr = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\r?\n/g, '&#xA;');
const html = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function sentencesOf(texts: readonly string[]): string[] {
  const out: string[] = [];
  for (const t of texts)
    for (const s of t.split(/(?<=[.!?])\s+/)) {
      const x = s.trim();
      if (x) out.push(x);
    }
  return out;
}

/**
 * The text model: real sentences and lengths, hapax words replaced by a growing synthetic tail.
 * body/answer are HTML paragraphs (as in a dump's Body attribute); plainBody is a question body
 * drawn the same way as plain text, paragraphs separated by a blank line (for questions JSONL).
 */
export function textModel(real: RealTexts, rnd: () => number) {
  const counts = new Map<string, number>();
  const count = (t: string) => {
    for (const w of t.toLowerCase().match(WORD) ?? []) counts.set(w, (counts.get(w) ?? 0) + 1);
  };
  for (const q of real.questions) {
    count(q.title);
    count(q.body);
  }
  for (const a of real.answers) count(a);
  const TAIL = 2_000_000;
  const lnTail = Math.log(TAIL + 1);
  const tailWord = (): string => {
    let r = Math.floor(Math.exp(rnd() * lnTail));
    let s = 'q';
    let x = (r * 2654435761) % 4294967296;
    for (let i = 0; i < 3 || r > 0; i++) {
      s += String.fromCharCode(97 + (x % 26));
      x = Math.floor(x / 26);
      r = Math.floor(r / 26);
    }
    return s;
  };
  const fresh = (s: string): string => s.replace(WORD, (w) => (counts.get(w.toLowerCase()) === 1 ? tailWord() : w));
  const titles = real.questions.map((q) => q.title).filter((t) => t.trim());
  const bodyLengths = real.questions.map((q) => q.body.length).filter((n) => n > 0);
  const bodySentences = sentencesOf(real.questions.map((q) => q.body));
  const answerLengths = real.answers.map((a) => a.length).filter((n) => n > 0);
  const answerSentences = sentencesOf(real.answers);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  /** Paragraphs of 1–4 sentences until `target` characters, as HTML `<p>` lines or plain text. */
  const paragraphs = (pool: readonly string[], target: number, plain = false): string => {
    let out = '';
    let len = 0;
    while (len < target) {
      const n = 1 + Math.floor(rnd() * 4);
      const ss: string[] = [];
      for (let i = 0; i < n && len < target; i++) {
        const s = fresh(pick(pool));
        ss.push(s);
        len += s.length + 1;
      }
      out += plain ? `${out ? '\n\n' : ''}${ss.join(' ')}` : `<p>${html(ss.join(' '))}</p>\n`;
    }
    return out;
  };
  return {
    title: () => fresh(pick(titles)),
    body: () => paragraphs(bodySentences, pick(bodyLengths)),
    plainBody: () => paragraphs(bodySentences, pick(bodyLengths), true),
    /** 1–4 distinct real tags. */
    tags: (): string[] => {
      const n = 1 + Math.floor(rnd() * 4);
      const tags = new Set<string>();
      for (let i = 0; i < n && real.tags.length; i++) tags.add(real.tags[Math.floor(rnd() * real.tags.length)]!);
      return [...tags];
    },
    answer: () => paragraphs(answerSentences, pick(answerLengths)),
  };
}

/** Owner ids: Zipf over questions / 4 users (at least 10). */
export function ownerPicker(rnd: () => number, questions: number): () => number {
  const users = Math.max(10, Math.floor(questions / 4));
  const lnUsers = Math.log(users + 1);
  return () => Math.floor(Math.exp(rnd() * lnUsers));
}

/** Creation times from 2010-08-16 on, 0–2 minutes apart, as the dump writes them (no zone). */
export function datePicker(rnd: () => number): () => string {
  let time = Date.UTC(2010, 7, 16);
  return () => new Date((time += Math.floor(rnd() * 120_000))).toISOString().slice(0, 23);
}

function poisson(rnd: () => number, lambda: number): number {
  const l = Math.exp(-lambda);
  let k = 0;
  let p = 1;
  do {
    k++;
    p *= rnd();
  } while (p > l && k < 50);
  return k - 1;
}

export function writeStackExchangeDump(opts: DumpOptions, real: RealTexts = readRealTexts()): DumpSummary {
  const rnd = mulberry32(opts.seed ?? 7);
  const model = textModel(real, rnd);
  const lambda = opts.answersPerQuestion ?? real.answersPerQuestion;
  const owner = ownerPicker(rnd, opts.questions);
  mkdirSync(opts.dir, { recursive: true });
  const postsFile = path.join(opts.dir, 'Posts.xml');
  const linksFile = path.join(opts.dir, 'PostLinks.xml');
  const posts = new FileSink(postsFile);
  const links = new FileSink(linksFile);
  posts.write('\ufeff<?xml version="1.0" encoding="utf-8"?>\n<posts>\n');
  links.write('\ufeff<?xml version="1.0" encoding="utf-8"?>\n<postlinks>\n');
  const questionIds = new Int32Array(opts.questions);
  let id = 0;
  let linkId = 0;
  let answers = 0;
  let duplicateLinks = 0;
  const date = datePicker(rnd);
  for (let q = 0; q < opts.questions; q++) {
    const qid = ++id;
    questionIds[q] = qid;
    const tags = model.tags();
    const nAnswers = lambda > 0 ? poisson(rnd, lambda) : 0;
    posts.write(
      `  <row Id="${qid}" PostTypeId="1" CreationDate="${date()}" Score="${Math.floor(rnd() * 20) - 2}" ViewCount="${Math.floor(rnd() * 5000)}" ` +
        `Body="${attr(model.body())}" OwnerUserId="${owner()}" Title="${attr(model.title())}" Tags="${attr(tags.map((t) => `<${t}>`).join(''))}" ` +
        `AnswerCount="${nAnswers}" CommentCount="0" ContentLicense="CC BY-SA 4.0" />\n`,
    );
    for (let a = 0; a < nAnswers; a++) {
      answers++;
      posts.write(
        `  <row Id="${++id}" PostTypeId="2" ParentId="${qid}" CreationDate="${date()}" Score="${Math.floor(rnd() * 10)}" ` +
          `Body="${attr(model.answer())}" OwnerUserId="${owner()}" CommentCount="0" ContentLicense="CC BY-SA 4.0" />\n`,
      );
    }
    if (q > 100) {
      const r = rnd();
      if (r < 0.03) {
        const dup = r < 0.01;
        if (dup) duplicateLinks++;
        const target = questionIds[Math.floor(rnd() * q)]!;
        links.write(`  <row Id="${++linkId}" CreationDate="${date()}" PostId="${qid}" RelatedPostId="${target}" LinkTypeId="${dup ? 3 : 1}" />\n`);
      }
    }
    if (opts.onProgress && (q + 1) % 10_000 === 0) opts.onProgress(q + 1, opts.questions);
  }
  posts.write('</posts>\n');
  links.write('</postlinks>\n');
  posts.close();
  links.close();
  return { postsFile, linksFile, questions: opts.questions, answers, duplicateLinks, questionIds, bytes: posts.bytes + links.bytes };
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
}

if (process.argv[1] && /gen-se-dump\.(m?js|ts)$/.test(process.argv[1])) {
  // `--question 100` wrote the default 10,000 questions.
  exitOnUsageError('gen-se-dump', () => checkOptions(['questions', 'out', 'seed', 'answers-per-question'], []));
  const questions = Number(arg('questions') ?? 10_000);
  const out = arg('out');
  if (!out || !Number.isInteger(questions) || questions <= 0) {
    console.error('usage: gen-se-dump --questions N --out DIR [--seed S] [--answers-per-question X]');
    process.exit(2);
  }
  const t0 = performance.now();
  const apq = arg('answers-per-question');
  const s = writeStackExchangeDump({
    questions,
    dir: out,
    seed: Number(arg('seed') ?? 7),
    answersPerQuestion: apq === undefined ? undefined : Number(apq),
    onProgress: (n, total) => process.stderr.write(`\r${n.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} questions`),
  });
  process.stderr.write('\n');
  console.log(
    `${s.questions.toLocaleString('en-US')} questions, ${s.answers.toLocaleString('en-US')} answers, ${s.duplicateLinks} duplicate links, ` +
      `${(s.bytes / 1048576).toFixed(1)} MB in ${((performance.now() - t0) / 1000).toFixed(1)} s → ${out}`,
  );
}
