/**
 * The public datasets shipped in `datasets/` (see datasets/README.md), for tests. The XML files
 * are stored gzip-compressed; QPairs' importers read `.gz` directly, so `dataset()` returns the
 * stored file's path and `datasetText()` the unpacked text for tests that read it themselves.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository's `datasets/` folder. */
export const DATASETS = path.resolve(here, '../datasets');

/**
 * Absolute path of a shipped dataset file or folder, named as unpacked (`semeval2016-task3/
 * SemEval2016-Task3-CQA-QL-dev.xml` finds `….xml.gz`). Throws, never skips, when it is missing.
 */
export function dataset(rel: string): string {
  const p = path.join(DATASETS, rel);
  if (existsSync(p)) return p;
  if (existsSync(`${p}.gz`)) return `${p}.gz`;
  throw new Error(`dataset file missing: ${p} (datasets/ ships with the repository)`);
}

/** The unpacked UTF-8 text of a shipped dataset file. */
export function datasetText(rel: string): string {
  const p = dataset(rel);
  const bytes = readFileSync(p);
  return (p.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

/**
 * Path of an unpacked copy of a shipped dataset file, written once under `.tmp/datasets/` (the
 * test scratch folder, untracked): for tests that upload or cut the plain file as a user would.
 * Written to a temporary name and renamed, so parallel workers never see half a file.
 */
export function unpackedDataset(rel: string): string {
  const out = path.resolve(here, '../.tmp/datasets', rel);
  if (existsSync(out)) return out;
  mkdirSync(path.dirname(out), { recursive: true });
  const tmp = `${out}.${process.pid}.part`;
  writeFileSync(tmp, datasetText(rel));
  renameSync(tmp, out);
  return out;
}
