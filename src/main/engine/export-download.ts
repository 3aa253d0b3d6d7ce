/**
 * export.write with `download` (serve mode's Export screen): the export is streamed to a folder of
 * the server's own (export/downloads.ts), as an export to a path is (export/line-sink.ts), and the
 * answer gives an id per download instead of the files' content — which, sent in the JSON answer,
 * held every file whole in the server's memory. The browser fetches each id once (GET
 * /api/download/ID, serve/server.ts). The answer names the files as the content answer did
 * (`POOL.jsonl`, `POOL/README.md`), never where they are on the server.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { API_EXPORT_CONTROLS, type DownloadStatus, type ExportFormat, type ExportWritten } from '../../shared/gold';
import { zipEntryName, zipSize } from '../../shared/zip';
import { abandonExportStream, defaultExportName, finishExportWriteCancellable, openExportStream, prepareExportWrite, type BuiltExport } from '../export';
import type { Download, DownloadFile, DownloadStore } from '../export/downloads';
import { QPairsError } from '../errors';
import type { EngineCore as Engine } from './core';
import type { ExportJobRun } from './export-job';
import { ownsDownload } from './access';

export interface DownloadRequest {
  pool: string;
  format: ExportFormat;
  run?: string;
  text?: boolean;
  /** Who asks (access.ts principalOf): the only caller who may fetch the downloads. */
  owner: string;
}

/** Renders the export to `out`, streaming its files under `streamToken` (gold.ts renderExport). */
export type StreamedRender = (out: string, streamToken: string, run: ExportJobRun) => Promise<BuiltExport>;

/** Writes the export into a new download folder and gives its downloads their ids; the folder goes if anything fails or is cancelled. */
export async function writeForDownload(engine: Engine, req: DownloadRequest, render: StreamedRender, run: ExportJobRun): Promise<ExportWritten> {
  const store = engine.downloads;
  const folder = store.folder();
  try {
    const target = prepareExportWrite(engine.ws, req.format, path.join(folder, defaultExportName(req.pool, req.format)), { pool: req.pool, run: req.run, text: req.text, controls: API_EXPORT_CONTROLS });
    const stream = openExportStream(target);
    let built: BuiltExport;
    try {
      built = await render(target.abs, stream.token, run);
    } catch (e) {
      abandonExportStream(target, stream);
      throw e;
    }
    run.onProgress('writing', 0, 0);
    const b = await finishExportWriteCancellable(target, built, { controls: API_EXPORT_CONTROLS }, run.signal, stream);
    const files: DownloadFile[] = [...b.files, b.datasheet].map((f) => ({ path: f.name, name: path.relative(folder, f.name).split(path.sep).join('/'), bytes: statSync(f.name).size }));
    const downloads = downloadsOf(req, files);
    const sizes = downloads.map(downloadBytes); // a zip past 4 GiB is refused here, before any id is given
    const ids = store.add(folder, downloads);
    return {
      pool: b.pool,
      format: b.format,
      files: files.map((f) => ({ name: f.name, bytes: f.bytes })),
      downloads: downloads.map((d, i) => ({ id: ids[i]!, name: d.name, bytes: sizes[i]!, expiresAt: store.status(ids[i]!)!.expiresAt! })),
      now: Date.now(),
      warnings: b.warnings,
    };
  } catch (e) {
    store.discard(folder);
    if (e instanceof Error) e.message = withoutDownloadFolder(e.message, folder);
    throw e;
  }
}

/**
 * A failure's message (a full disk: "cannot write FOLDER/p.jsonl: …") with the export's files by their
 * names in the download and the folder as "the server's download folder": it goes to a remote caller,
 * who is never told where the server keeps files.
 */
export function withoutDownloadFolder(message: string, folder: string): string {
  return message.split(folder + path.sep).join('').split(folder).join("the server's download folder");
}

/**
 * export.downloads: what became of each id, for the caller who exported it; anyone else's (and one never
 * given, or forgotten) is `unknown` alike (access.ts ownsDownload), neither told apart nor touched.
 */
export function downloadStatuses(store: DownloadStore, ids: readonly string[], caller: { annotator: string | null }): DownloadStatus[] {
  const now = Date.now();
  return ids.map((id) => {
    const s = store.status(id);
    if (!ownsDownload(s, caller)) return { id, state: 'unknown', sentBytes: 0, failures: 0, now };
    const { owner: _owner, ...status } = s;
    return { ...status, now };
  });
}

/** What the browser downloads: each file under its own name, or (issue 24) an hf-dataset folder as one `FOLDER.zip`. */
function downloadsOf(req: DownloadRequest, files: DownloadFile[]): Download[] {
  if (req.format === 'hf-dataset') {
    const folder = files[0]?.name.split('/')[0] || defaultExportName(req.pool, req.format);
    return [{ owner: req.owner, name: `${folder}.zip`, files, zip: true }];
  }
  return files.map((f) => ({ owner: req.owner, name: path.posix.basename(f.name), files: [f], zip: false }));
}

/** A download's size: its file's, or its zip's (a zip past what one without ZIP64 holds, 4 GiB, is refused as the user's to change, not as an internal error). */
export function downloadBytes(d: Download): number {
  if (!d.zip) return d.files[0]!.bytes;
  try {
    return zipSize(d.files.map((f) => ({ name: zipEntryName(f.name), size: f.bytes })));
  } catch (e) {
    throw new QPairsError(`${d.name} cannot be downloaded: ${(e as Error).message} (4 GiB): export it without the question text, or have the server's owner write it to a folder with qpairs export; nothing was written`);
  }
}
