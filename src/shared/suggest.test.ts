import { describe, it, expect } from 'vitest';
import { closest, editDistance, unknownChoice, subcommandError } from './suggest';

describe('did-you-mean suggestions', () => {
  it('counts a swap of two neighbouring letters as one edit', () => {
    expect(editDistance('improt', 'import')).toBe(1);
    expect(editDistance('jsnol', 'jsonl')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('names the close candidate, a unique prefix, and nothing when none is close or two are', () => {
    expect(closest('improt', ['init', 'import', 'pool'])).toBe('import');
    expect(closest('--pol', ['--pool', '--json'])).toBe('--pool');
    expect(closest('agree', ['aggregate', 'agreement', 'adjudicate'])).toBe('agreement');
    expect(closest('EVAL', ['eval', 'export'])).toBe('eval');
    expect(closest('frobnicate', ['init', 'import'])).toBeNull();
    expect(closest('askubuntu-text', ['askubuntu-corpus', 'askubuntu-pairs', 'askubuntu-pool'])).toBeNull();
    expect(closest('ab', ['ax', 'ay'])).toBeNull();
  });

  it('words the usage errors', () => {
    expect(unknownChoice('format', 'jsnol', ['jsonl', 'csv'])).toBe('unknown format "jsnol" (did you mean "jsonl"? formats: jsonl, csv)');
    expect(unknownChoice('format', 'xml', ['jsonl', 'csv'])).toBe('unknown format "xml" (formats: jsonl, csv)');
    expect(subcommandError('pool', 'craete', ['create', 'list', 'set'])).toBe('unknown pool command "craete" (did you mean "create"? pool commands: create, list, set)');
    expect(subcommandError('pool', undefined, ['create', 'list', 'set'])).toBe('usage: qpairs pool create|list|set W …');
  });
});
