/**
 * The real texts the benchmarks model their synthetic corpora on: SemEval-2016 Task 3 questions
 * and comments (Qatar Living) and the cstheory-meta Stack Exchange dump's questions, answers and
 * tags, read from the repository's datasets/ (or QPAIRS_DATA). Plain regex parsing:
 * these are known files, and the benchmarks only need text and lengths from them.
 */
import { datasetsDir, readDataset } from './datasets-dir';

export interface RealQuestion {
  title: string;
  /** Plain text (HTML tags removed, entities decoded). */
  body: string;
}

export interface RealTexts {
  questions: RealQuestion[];
  /** Answer and comment texts (plain text). */
  answers: string[];
  /** Tag names seen on the Stack Exchange questions, and SemEval categories (spaces → dashes). */
  tags: string[];
  /** Answers per question in the Stack Exchange dump (its real ratio). */
  answersPerQuestion: number;
}

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[e.toLowerCase()]!;
  });
}

const stripTags = (html: string): string => html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();

const SEMEVAL_FILES = ['SemEval2016-Task3-CQA-QL-train-part1.v2.0.xml', 'SemEval2016-Task3-CQA-QL-train-part2.xml', 'SemEval2016-Task3-CQA-QL-dev.xml'];

/** Every distinct question (SemEval original + related, cstheory-meta questions) with its text. */
export function readRealTexts(dir = datasetsDir()): RealTexts {
  const questions: RealQuestion[] = [];
  const answers: string[] = [];
  const tags = new Set<string>();
  const seen = new Set<string>();
  for (const f of SEMEVAL_FILES) {
    const xml = readDataset(`semeval2016-task3/${f}`, dir);
    const re =
      /<OrgQuestion ORGQ_ID="([^"]+)"[^>]*>\s*<OrgQSubject>([\s\S]*?)<\/OrgQSubject>\s*<OrgQBody>([\s\S]*?)<\/OrgQBody>|<RelQuestion RELQ_ID="([^"]+)"[^>]*?RELQ_CATEGORY="([^"]*)"[^>]*>\s*<RelQSubject>([\s\S]*?)<\/RelQSubject>\s*<RelQBody>([\s\S]*?)<\/RelQBody>/g;
    for (const m of xml.matchAll(re)) {
      const id = m[1] ?? m[4]!;
      if (m[5]) tags.add(decodeEntities(m[5]).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''));
      if (seen.has(id)) continue;
      seen.add(id);
      questions.push({ title: decodeEntities(m[2] ?? m[6]!), body: decodeEntities(m[3] ?? m[7]!) });
    }
    for (const m of xml.matchAll(/<RelCText>([\s\S]*?)<\/RelCText>/g)) answers.push(decodeEntities(m[1]!));
  }
  const posts = readDataset('stackexchange-cstheory-meta/Posts.xml', dir);
  let seQuestions = 0;
  let seAnswers = 0;
  for (const m of posts.matchAll(/<row [^>]*>/g)) {
    const row = m[0];
    const type = /\bPostTypeId="(\d+)"/.exec(row)?.[1];
    const body = stripTags(decodeEntities(decodeEntities(/\bBody="([^"]*)"/.exec(row)?.[1] ?? '')));
    if (type === '1') {
      seQuestions++;
      questions.push({ title: decodeEntities(/\bTitle="([^"]*)"/.exec(row)?.[1] ?? ''), body });
      const t = decodeEntities(/\bTags="([^"]*)"/.exec(row)?.[1] ?? '');
      for (const tag of t.match(/[^<>|]+/g) ?? []) tags.add(tag);
    } else if (type === '2') {
      seAnswers++;
      answers.push(body);
    }
  }
  tags.delete('');
  return { questions, answers, tags: [...tags].sort(), answersPerQuestion: seQuestions ? seAnswers / seQuestions : 2 };
}
