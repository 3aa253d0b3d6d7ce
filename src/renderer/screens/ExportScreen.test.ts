import { describe, expect, it } from 'vitest';
import { EXPORT_FILES_EXIST } from '../../shared/gold';
import { ClientError } from '../client/types';
import { refusedForFilesInTheWay } from './ExportScreen';

describe('refusedForFilesInTheWay: the Export screen offers "Replace them" on the engine\'s reason code, not on the words', () => {
  it('the refusal for files in the way, over either transport', () => {
    expect(refusedForFilesInTheWay(new ClientError('refusing to overwrite 2 existing files: /o/dev.txt.datasheet.md, /o/dev.corpus.txt; …', 'user-error', 422, EXPORT_FILES_EXIST))).toBe(true);
    expect(refusedForFilesInTheWay(new ClientError('refusing to overwrite an existing file: /o/p.qrels.datasheet.md; …', 'user-error', undefined, EXPORT_FILES_EXIST))).toBe(true);
  });

  it('not another error whose message happens to start with the same words', () => {
    expect(refusedForFilesInTheWay(new ClientError('refusing to overwrite /o/w.qpairs: it is the workspace; nothing was written', 'user-error', 422))).toBe(false);
    expect(refusedForFilesInTheWay(new Error('refusing to overwrite an existing file: /o/p.qrels'))).toBe(false);
    expect(refusedForFilesInTheWay('refusing to overwrite an existing file')).toBe(false);
  });
});
