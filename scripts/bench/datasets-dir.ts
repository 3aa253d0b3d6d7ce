/**
 * Where the benchmarks find their data: `QPAIRS_DATA` when set (a folder laid out like the
 * repository's `datasets/`, for larger private data), else the repository's own `datasets/`,
 * found from the working directory or from this bundle (`out/node/` → two levels up).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export function datasetsDir(): string {
  const given = process.env.QPAIRS_DATA;
  if (given) {
    if (!existsSync(given)) throw new Error(`QPAIRS_DATA=${given}: no such folder`);
    return path.resolve(given);
  }
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(process.cwd(), 'datasets'), path.resolve(here, '../../datasets'), path.resolve(here, '../datasets')];
  const found = candidates.find((c) => existsSync(path.join(c, 'semeval2016-task3')));
  if (!found) throw new Error(`datasets/ not found (looked in ${candidates.join(', ')}); run from the repository or set QPAIRS_DATA`);
  return found;
}

/** `file` itself, or its gzip-compressed `file.gz` (datasets/ ships the XML compressed). */
export function plainOrGz(file: string): string {
  if (existsSync(file)) return file;
  if (existsSync(`${file}.gz`)) return `${file}.gz`;
  throw new Error(`dataset file missing: ${file}(.gz)`);
}

/** The UTF-8 text of `file` or of its `.gz` copy, unpacked. */
export function readPlainOrGz(file: string): string {
  const p = plainOrGz(file);
  const bytes = readFileSync(p);
  return (p.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** Path of `rel` under the datasets folder: the file itself, or its gzip-compressed `rel.gz`. */
export function datasetPath(rel: string, dir = datasetsDir()): string {
  return plainOrGz(path.join(dir, rel));
}

/** The UTF-8 text of `rel` under the datasets folder (unpacked when stored as `.gz`). */
export function readDataset(rel: string, dir = datasetsDir()): string {
  return readPlainOrGz(path.join(dir, rel));
}
