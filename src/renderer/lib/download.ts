/**
 * Browser downloads of text the engine returned (serve mode exports): a Blob, an object URL and a
 * temporary `<a download>` clicked once. Nothing is navigated; the CSP does not restrict this.
 */
import { zipFiles } from './zip';

/** The file name part of a path (both separators). */
export function baseName(name: string): string {
  return name.split(/[\\/]/).pop() || 'download.txt';
}

/** A content type for an export file by its name. */
export function mimeFor(name: string): string {
  const n = name.toLowerCase();
  if (n.endsWith('.md')) return 'text/markdown;charset=utf-8';
  if (n.endsWith('.csv')) return 'text/csv;charset=utf-8';
  if (n.endsWith('.jsonl')) return 'application/jsonl;charset=utf-8';
  return 'text/plain;charset=utf-8';
}

export interface DownloadEnv {
  document: Pick<Document, 'createElement' | 'body'>;
  URL: Pick<typeof URL, 'createObjectURL' | 'revokeObjectURL'>;
  setTimeout: (fn: () => void, ms: number) => unknown;
}

const browserEnv = (): DownloadEnv => ({ document, URL, setTimeout: (fn, ms) => setTimeout(fn, ms) });

/** Offers one text file for download. */
export function downloadText(name: string, content: string, env: DownloadEnv = browserEnv()): void {
  downloadBlob(name, new Blob([content], { type: mimeFor(name) }), env);
}

/**
 * Issue 24: offers a folder export (files named `FOLDER/…`) as one `FOLDER.zip` holding the files
 * under their folder, as the desktop app writes them.
 */
export function downloadZip(folder: string, files: ReadonlyArray<{ name: string; content: string }>, env: DownloadEnv = browserEnv()): void {
  const bytes = zipFiles(files.map((f) => ({ name: f.name, content: f.content })));
  downloadBlob(`${baseName(folder)}.zip`, new Blob([bytes as BlobPart], { type: 'application/zip' }), env);
}

/** Offers a blob for download under a file name. */
function downloadBlob(name: string, blob: Blob, env: DownloadEnv): void {
  const url = env.URL.createObjectURL(blob);
  const a = env.document.createElement('a');
  a.href = url;
  a.download = baseName(name);
  a.rel = 'noopener';
  a.style.display = 'none';
  env.document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoke later: the download may start after click() returns.
  env.setTimeout(() => env.URL.revokeObjectURL(url), 60_000);
}

/** Offers several files, one after the other (a short pause between them keeps browsers from dropping any). */
export async function downloadAll(files: ReadonlyArray<{ name: string; content: string }>, env: DownloadEnv = browserEnv(), pauseMs = 250): Promise<void> {
  for (let i = 0; i < files.length; i++) {
    if (i > 0) await new Promise<void>((r) => env.setTimeout(r, pauseMs));
    downloadText(files[i]!.name, files[i]!.content, env);
  }
}
