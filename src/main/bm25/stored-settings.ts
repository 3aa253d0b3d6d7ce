/**
 * Which analyzer and tokenizer settings a persisted BM25 index was built with (bm25_meta, see
 * src/main/workspace/migrations.ts), and whether it is outdated: built by a QPairs before the Lucene-parity analyzers
 * (tokenizer signature other than v2) or in another segment format. An outdated index is rebuilt
 * (Bm25Index.load gives an empty index; an import starts it over), keeping the workspace's analyzer.
 */
import { isAnalyzerName, type AnalyzerName } from './analyzers';
import { SEGMENT_FORMAT } from './segments';
import type { TokenizerOptions } from './tokenizer';

/** The tokenizer settings a stored index was built with, or that it is outdated. */
export interface StoredSettings {
  outdated: boolean;
  /** Settings of a current stored index. */
  tokenizer?: TokenizerOptions;
  /** The analyzer the workspace chose (kept across rebuilds of an outdated index). */
  analyzer?: AnalyzerName;
}

export function storedSettings(meta: Map<string, string>): StoredSettings {
  const named = meta.get('analyzer');
  const analyzer = isAnalyzerName(named) ? named : undefined;
  if (meta.size === 0) return { outdated: false };
  let sig: { v?: unknown; analyzer?: unknown; stopWords?: unknown; maxTokenLength?: unknown } = {};
  try {
    sig = JSON.parse(meta.get('tokenizer') ?? '{}') as typeof sig;
  } catch {
    return { outdated: true, analyzer };
  }
  if (meta.get('format') !== SEGMENT_FORMAT || sig.v !== 2 || !isAnalyzerName(sig.analyzer) || !Array.isArray(sig.stopWords) || typeof sig.maxTokenLength !== 'number')
    return { outdated: true, analyzer };
  return {
    outdated: false,
    analyzer: sig.analyzer,
    tokenizer: { analyzer: sig.analyzer, stopWords: sig.stopWords as string[], maxTokenLength: sig.maxTokenLength },
  };
}

/** `opts`, completed with the stored index's tokenizer settings when it names none. */
export function withStoredSettings<O extends { tokenizer?: TokenizerOptions; analyzer?: AnalyzerName }>(opts: O, stored: StoredSettings): O {
  if (opts.tokenizer !== undefined || opts.analyzer !== undefined) return opts;
  if (stored.tokenizer) return { ...opts, tokenizer: stored.tokenizer };
  if (stored.analyzer) return { ...opts, analyzer: stored.analyzer };
  return opts;
}
