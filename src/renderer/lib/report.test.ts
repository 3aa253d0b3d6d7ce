import { describe, expect, it } from 'vitest';
import { humanKey, reportLines } from './report';

describe('import report in words', () => {
  it('names keys, adds units, hides temp paths and bookkeeping', () => {
    const lines = reportLines({
      format: 'semeval',
      files: ['/tmp/qpairs-uploads-ab12/96ca7e8d-18a9-4af6-b801-66c02885a89e/dev.xml'],
      counts: { questionsInserted: 550, duplicatePairs: 0 },
      skipped: {},
      warnings: [],
      changedDocs: [1, 2, 3],
      seconds: 1.25,
    });
    expect(lines.map((l) => l.key)).toEqual(['format', 'files', 'counts', 'skipped', 'warnings', 'seconds']);
    expect(lines[1]!.text).toBe('dev.xml');
    expect(lines[2]!.text).toBe('550 questions added · 0 duplicate pairs');
    expect(lines[3]!.text).toBe('none');
    expect(lines[5]!.text).toBe('1.3 s');
    expect(JSON.stringify(lines)).not.toMatch(/qpairs-uploads|[a-z][A-Z]/);
  });
  it("says SemEval's comments once, as comments (it read '5,000 comments · 5,000 answers inserted' for the same rows)", () => {
    const counts = (c: Record<string, number>): string => reportLines({ format: 'semeval', counts: c })[1]!.text;
    expect(counts({ relatedQuestions: 500, commentsInserted: 5000 })).toBe('500 related questions · 5,000 comments added');
    expect(counts({ commentsUnchanged: 1 })).toBe('1 comment already there, unchanged');
    expect(counts({ commentsUpdated: 2 })).toBe('2 comments updated');
    expect(counts({ answersInserted: 1280 })).toBe('1,280 answers added');
  });
  it('splits one-letter words out of keys (issue 24: "not aquestion")', () => {
    expect(humanKey('notAQuestion')).toBe('not a question');
    expect(humanKey('postIsNotAQuestionOfTheDump')).toBe('post is not a question of the dump');
    expect(humanKey('answerToMissingPost')).toBe('answer to missing post');
  });
  it('names archive members with their archive', () => {
    const lines = reportLines({ files: ['/data/cardano.stackexchange.com.7z!/Posts.xml', '/data/cardano.stackexchange.com.7z!/PostLinks.xml'] });
    expect(lines[0]!.text).toBe('cardano.stackexchange.com.7z!/Posts.xml, cardano.stackexchange.com.7z!/PostLinks.xml');
  });
  it('turns unknown camelCase keys into words', () => {
    expect(humanKey('runScoresDropped')).toBe('run scores dropped');
  });
});

describe('counts of one', () => {
  it('take the singular: "1 pool created · 1 label", not "1 pools created · 1 labels"', () => {
    const lines = reportLines({ counts: { poolsCreated: 1, poolQueries: 1, poolCandidates: 2, labels: 1, questionsInserted: 1, answers: 1, runScoresDropped: 1 }, skipped: { linkToMissingQuestion: 1, emptyAnswer: 1 } });
    expect(lines[0]!.text).toBe('1 pool created · 1 pool query · 2 pool candidates · 1 label · 1 question added · 1 answer or comment · 1 run score dropped');
    expect(lines[1]!.text).toBe('1 link to a question not in the files · 1 empty answer');
    expect(reportLines({ counts: { poolsCreated: 2, labels: 0 } })[0]!.text).toBe('2 pools created · 0 labels');
  });
  it('and other counts the plural: "42 empty answers" (reasons left out are keyed in the singular; it read "42 empty answer")', () => {
    const lines = reportLines({ counts: { poolQueries: 2, poolCandidates: 40 }, skipped: { emptyAnswer: 42, notAQuestion: 4, notDuplicateLink: 448, repeatedRunScore: 3, unresolved: 8, linkToMissingQuestion: 2 } });
    expect(lines[0]!.text).toBe('2 pool queries · 40 pool candidates');
    expect(lines[1]!.text).toBe('42 empty answers · 4 not a question · 448 not duplicate links · 3 repeated run scores · 8 unresolved · 2 links to a question not in the files');
    expect(reportLines({ skipped: { pairNotInPool: 5, answerToMissingQuestion: 2, selfPair: 3, emptyComment: 1 } })[0]!.text).toBe(
      '5 pairs not in the pool · 2 answers to a question not in the files · 3 self pairs · 1 empty comment',
    );
  });
});

describe('an AskUbuntu pool', () => {
  it('says what its queries without similar are (it read "11 queries without similar")', () => {
    expect(reportLines({ counts: { poolQueries: 200, queriesWithoutSimilar: 11 } })[0]!.text).toBe('200 pool queries · 11 queries none of whose similar questions is among their candidates');
    expect(reportLines({ counts: { queriesWithoutSimilar: 1 } })[0]!.text).toBe('1 query none of whose similar questions is among their candidates');
  });
});

describe('a re-imported run', () => {
  it('says in words that runs were as they were or how many of their scores changed (it read "2 runs unchanged · 2 run scores changed")', () => {
    expect(reportLines({ counts: { runScores: 7, runsUnchanged: 2 } })[0]!.text).toBe('7 ranker scores · 2 runs already there, unchanged');
    expect(reportLines({ counts: { runScores: 8, runScoresChanged: 2, runsUnchanged: 1 } })[0]!.text).toBe(
      '8 ranker scores · 2 ranker scores changed in runs already there (added, given another value or dropped) · 1 run already there, unchanged',
    );
    expect(reportLines({ counts: { runs: 1, runScores: 1, runScoresChanged: 1 } })[0]!.text).toBe(
      '1 run added · 1 ranker score · 1 ranker score changed in runs already there (added, given another value or dropped)',
    );
    expect(reportLines({ counts: { runs: 2 } })[0]!.text).toBe('2 runs added');
  });
});

describe('an import that changed nothing', () => {
  it('says so first, in words (its "unchanged: true" was shown last as "unchanged: true", like any import)', () => {
    const lines = reportLines({ format: 'trec-run', files: ['/d/bm.run'], counts: { runScores: 4, runsUnchanged: 1 }, skipped: {}, warnings: [], unchanged: true });
    expect(lines[0]).toEqual({ key: 'unchanged', label: 'nothing changed', text: 'the workspace already holds this file as it is' });
    expect(lines.filter((l) => l.key === 'unchanged')).toHaveLength(1);
    expect(reportLines({ files: ['/d/a.jsonl', '/d/b.jsonl'], counts: {}, unchanged: true })[0]!.text).toBe('the workspace already holds these files as they are');
    expect(reportLines({ files: ['/d/a.jsonl'], counts: { questionsInserted: 1 } }).map((l) => l.key)).toEqual(['files', 'counts']);
  });
});
