import { describe, expect, it } from 'vitest';
import { cleanUploadPaths, fmtCount, fmtDuration, fmtEta, fmtImportProgress, fmtImportSubject, fmtMetric, snippet } from './format';

describe('format helpers', () => {
  it('says which import runs, for a tab following one it did not start', () => {
    const at = (iso: string): string => iso.slice(11, 19);
    expect(fmtImportSubject({ format: 'questions-jsonl', files: ['large.jsonl'], startedBy: null, started: '2026-11-29T10:02:03.000Z' }, at)).toBe(
      'Importing large.jsonl (questions-jsonl), started by the owner at 10:02:03',
    );
    expect(fmtImportSubject({ format: 'semeval', files: ['a.xml', 'b.xml', 'c.xml', 'd.xml', 'e.xml'], pool: 'dev', startedBy: 'alice', started: '2026-11-29T10:02:03.000Z' }, at)).toBe(
      'Importing a.xml, b.xml, c.xml and 2 more files (semeval) into pool dev, started by alice at 10:02:03',
    );
  });
  it('shows upload file names instead of temp paths', () => {
    expect(cleanUploadPaths('/tmp/qpairs-uploads-p2nLv0/96ca7e8d-18a9-4af6-b801-66c02885a89e/truncated-dev.xml, line 454: malformed XML')).toBe(
      'truncated-dev.xml, line 454: malformed XML',
    );
    expect(cleanUploadPaths('C:\\Temp\\qpairs-uploads-ab12\\96ca7e8d-18a9\\x.csv line 2')).toBe('x.csv line 2');
    expect(cleanUploadPaths('/data/dev.xml, line 3: bad')).toBe('/data/dev.xml, line 3: bad');
  });
  it('says an import’s progress in MB read, and leaves the indexing counts to the bar', () => {
    expect(fmtImportProgress(2_621_440, 23_027_767, '16,781 records')).toBe('2.6 of 23.0 MB read');
    expect(fmtImportProgress(0, 1_234_567_890, '')).toBe('0.0 of 1,234.6 MB read');
    expect(fmtImportProgress(40, 150_000, 'indexing')).toBeNull();
    expect(fmtImportProgress(0, 0, '')).toBeNull();
  });

  it('counts with the noun in the right number', () => {
    expect(fmtCount(1, 'pair')).toBe('1 pair');
    expect(fmtCount(0, 'pair')).toBe('0 pairs');
    expect(fmtCount(2500, 'ruling')).toBe('2,500 rulings');
    expect(fmtCount(2, 'query', 'queries')).toBe('2 queries');
  });
  it('formats durations and snippets', () => {
    expect(fmtDuration(42_400)).toBe('42 s');
    expect(fmtDuration(125_000)).toBe('2 min 05 s');
    expect(fmtDuration(null)).toBe('—');
    expect(snippet('a  b\n c', 100)).toBe('a b c');
    expect(snippet('x'.repeat(300), 10)).toBe('xxxxxxxxx…');
  });
  it('formats metrics as the papers and the CLI do (percent, two decimals) and ETAs', () => {
    expect(fmtMetric(0.71354)).toBe('71.35');
    expect(fmtMetric(1)).toBe('100.00');
    expect(fmtMetric(null)).toBe('—');
    expect(fmtMetric(Number.NaN)).toBe('—');
    expect(fmtEta(10, 30_000)).toBe('5 min');
    expect(fmtEta(0, 30_000)).toBe('done');
    expect(fmtEta(200, 60_000)).toBe('3 h 20 min');
    expect(fmtEta(5, null)).toBe('—');
  });
});
