/**
 * Where a rendered export file's lines go (formats.ts): kept in memory (a preview, a serve-mode
 * download, whose content is the answer), or streamed to a temporary file beside the export's
 * target, in chunks, as they are rendered (`qpairs export`, export.write to a path). Kept whole, a
 * 478 MB jsonl export took 3 GB (its lines, their join, the copy from the compute worker, the UTF-8
 * bytes); streamed, the file's bytes are never all in memory. The temporary files are named from a
 * token the writer chooses (tempFileName), so that it can remove them (removeTempFiles) when a
 * compute worker that was writing them is stopped; they are renamed onto their targets only once
 * every file of the export is written (write.ts).
 */
import { closeSync, fsyncSync, openSync, readdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { QPairsError } from '../errors';
import { whyCannotWrite, writeAllSync } from './write';

export interface LineSink {
  push(line: string): void;
  /** Lines pushed so far. */
  readonly count: number;
  /** The lines kept in memory (all of them), or null when they went to a file. */
  readonly kept: string[] | null;
}

/** A sink that keeps every line (the content is their join, each line ended by "\n"). */
export function memorySink(): LineSink {
  const kept: string[] = [];
  return {
    push: (line) => void kept.push(line),
    get count() {
      return kept.length;
    },
    kept,
  };
}

/**
 * A sink that keeps the first `head` lines and counts the others (a preview: export.preview shows each
 * file's first lines; the whole file's lines were kept and sliced, 60 MB for a 400,000-pair jsonl without text).
 */
export function headSink(head: number): LineSink {
  const kept: string[] = [];
  let count = 0;
  return {
    push: (line) => {
      if (count++ < head) kept.push(line);
    },
    get count() {
      return count;
    },
    kept,
  };
}

/** Bytes gathered before a streamed file's write(2). */
const CHUNK_CHARS = 1 << 20;

export interface FileSink extends LineSink {
  /** The temporary file written. */
  readonly temp: string;
  readonly bytes: number;
  /** Writes what is left, fsyncs and closes the file (once; a failed export closes it too). */
  close(): void;
}

/**
 * A sink writing each line and its "\n" to the new temporary file `temp` (refused if it exists), in
 * chunks of about a MiB: the same bytes as the kept lines joined (memorySink), never all in memory.
 */
export function fileSink(temp: string, target: string): FileSink {
  /** A write that fails (a full disk) is said as the export's failure to write `target`, not as an internal error. */
  const failed = (e: unknown): QPairsError => new QPairsError(`cannot write ${target}: ${whyCannotWrite(target, e)}; nothing was written`, { file: target });
  let fd: number | null;
  try {
    fd = openSync(temp, 'wx');
  } catch (e) {
    throw failed(e);
  }
  let parts: string[] = [];
  let chars = 0;
  let count = 0;
  let bytes = 0;
  const flush = (): void => {
    if (!parts.length || fd === null) return;
    const buf = Buffer.from(parts.join(''), 'utf8');
    parts = [];
    chars = 0;
    try {
      writeAllSync(fd, buf);
    } catch (e) {
      throw failed(e);
    }
    bytes += buf.length;
  };
  return {
    temp,
    kept: null,
    get count() {
      return count;
    },
    get bytes() {
      return bytes;
    },
    push(line) {
      parts.push(line, '\n');
      count++;
      chars += line.length + 1;
      if (chars >= CHUNK_CHARS) flush();
    },
    close() {
      if (fd === null) return;
      try {
        flush();
        try {
          fsyncSync(fd);
        } catch (e) {
          throw failed(e);
        }
      } finally {
        closeSync(fd);
        fd = null;
      }
    },
  };
}

/** The temporary file an export streams `target` to: `.NAME.TOKEN.tmp` in its folder (the token is the writer's, one per export). */
export function tempFileName(target: string, token: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${token}.tmp`);
}

/** Removes the temporary files of the export `token` from `folders` (a stopped compute worker leaves what it was writing). */
export function removeTempFiles(folders: readonly string[], token: string): void {
  for (const dir of folders) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const n of names) {
      if (!n.startsWith('.') || !n.endsWith(`.${token}.tmp`)) continue;
      try {
        unlinkSync(path.join(dir, n));
      } catch {
        /* gone already */
      }
    }
  }
}
