/**
 * Browser downloads of serve-mode exports: export.write with `download` streams the files to the
 * server's own folder and answers an id per download; the page offers each with a temporary
 * `<a download>` on GET /api/download/ID (its cookie says who asks), one at a time (download-queue.ts).
 * The files never pass through the page's memory (they came back as text in the answer, then as a Blob).
 */
import { DOWNLOAD_PATH } from '../../shared/gold';

/** The file name part of a path (both separators). */
export function baseName(name: string): string {
  return name.split(/[\\/]/).pop() || 'download.txt';
}

export interface DownloadEnv {
  document: Pick<Document, 'createElement' | 'body'>;
}

const browserEnv = (): DownloadEnv => ({ document });

/** The address a download is fetched from (on the page's own server). */
export function downloadUrl(id: string): string {
  return `${DOWNLOAD_PATH}${encodeURIComponent(id)}`;
}

/** Asks the browser to download one download of the server's, under its file name. */
export function offerDownload(d: { id: string; name: string }, env: DownloadEnv = browserEnv()): void {
  const a = env.document.createElement('a');
  a.href = downloadUrl(d.id);
  a.download = baseName(d.name);
  a.rel = 'noopener';
  a.style.display = 'none';
  env.document.body.appendChild(a);
  a.click();
  a.remove();
}
