/**
 * What the Export screen says once files are written or downloaded: green only when every file
 * holds something; a file of 0 bytes (a label source with nothing to export, e.g. an aggregate with
 * no labels yet) is named, so an empty download never reads as a success. The export's warnings
 * are listed here only when they are not the preview's, which the screen already shows below.
 */
import { baseName } from '../lib/download';

export interface ExportDoneView {
  tone: 'ok' | 'note';
  /** The empty files, said in a sentence; null when none is empty. */
  empty: string | null;
  /** The warnings to list with the result (none when the preview shows the same ones). */
  warnings: string[];
}

export function exportDoneView(files: ReadonlyArray<{ name: string; bytes: number }>, warnings: readonly string[], previewWarnings: readonly string[] | null): ExportDoneView {
  const empty = files.filter((f) => f.bytes === 0).map((f) => baseName(f.name));
  const sameAsPreview = previewWarnings !== null && previewWarnings.length === warnings.length && warnings.every((w, i) => w === previewWarnings[i]);
  return {
    tone: empty.length > 0 ? 'note' : 'ok',
    empty: empty.length === 0 ? null : `${empty.join(', ')} ${empty.length === 1 ? 'is' : 'are'} empty (0 bytes): this label source has nothing to export in this format${warnings.length > 0 ? ' (see the warning)' : ''}.`,
    warnings: sameAsPreview ? [] : [...warnings],
  };
}
