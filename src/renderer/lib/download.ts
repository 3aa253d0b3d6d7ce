/**
 * Browser downloads of serve-mode exports: export.write with `download` streams the files to the
 * server's own folder and answers an id per download; the page offers each with a temporary
 * `<a download>` on GET /api/download/ID (its cookie says who asks), clicked once. The files never
 * pass through the page's memory (they came back as text in the answer, then as a Blob).
 */
import { DOWNLOAD_PATH } from '../../shared/gold';

/** The file name part of a path (both separators). */
export function baseName(name: string): string {
  return name.split(/[\\/]/).pop() || 'download.txt';
}

export interface DownloadEnv {
  document: Pick<Document, 'createElement' | 'body'>;
  setTimeout: (fn: () => void, ms: number) => unknown;
}

const browserEnv = (): DownloadEnv => ({ document, setTimeout: (fn, ms) => setTimeout(fn, ms) });

/** The address a download is fetched from (on the page's own server). */
export function downloadUrl(id: string): string {
  return `${DOWNLOAD_PATH}${encodeURIComponent(id)}`;
}

/** Offers one download of the server's under its file name. */
function downloadFromServer(d: { id: string; name: string }, env: DownloadEnv): void {
  const a = env.document.createElement('a');
  a.href = downloadUrl(d.id);
  a.download = baseName(d.name);
  a.rel = 'noopener';
  a.style.display = 'none';
  env.document.body.appendChild(a);
  a.click();
  a.remove();
}

/** Offers every download, one after the other (a short pause between them keeps browsers from dropping any). */
export async function downloadAll(downloads: ReadonlyArray<{ id: string; name: string }>, env: DownloadEnv = browserEnv(), pauseMs = 250): Promise<void> {
  for (let i = 0; i < downloads.length; i++) {
    if (i > 0) await new Promise<void>((r) => env.setTimeout(r, pauseMs));
    downloadFromServer(downloads[i]!, env);
  }
}
