import { describe, expect, it } from 'vitest';
import { exportDoneView } from './exportDone';

describe('exportDoneView', () => {
  it('is green when every file holds something, and lists warnings the preview does not show', () => {
    expect(exportDoneView([{ name: '/o/p.jsonl', bytes: 120 }, { name: '/o/p.jsonl.datasheet.md', bytes: 900 }], ['w1'], null)).toEqual({ tone: 'ok', empty: null, warnings: ['w1'] });
  });

  it('names an empty file instead of calling the download a success, and does not repeat the preview\'s warnings', () => {
    const warnings = ['@aggregate has no labels in pool "p"'];
    const v = exportDoneView([{ name: 'p.qrels', bytes: 0 }, { name: 'p.qrels.datasheet.md', bytes: 900 }], warnings, [...warnings]);
    expect(v.tone).toBe('note');
    expect(v.empty).toBe('p.qrels is empty (0 bytes): this label source has nothing to export in this format (see the warning).');
    expect(v.warnings).toEqual([]);
    // Warnings that differ from the preview's (another option since) are listed with the result.
    expect(exportDoneView([{ name: 'p.qrels', bytes: 0 }], ['other'], warnings).warnings).toEqual(['other']);
  });
});
