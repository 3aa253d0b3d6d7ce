import type { Workspace } from '../workspace/workspace';
import type { EventHub } from './events';
import type { JobRunner } from './jobs';
import type { WriteGate } from './write-gate';
import type { DownloadStore } from '../export/downloads';

/**
 * What command handlers need of the engine: its workspace, event hub, job runner and write gate,
 * and upload lookup. The Engine class (engine.ts) is one; handlers depend on this interface, not on
 * the class that imports them.
 */
export interface EngineCore {
  readonly ws: Workspace;
  readonly hub: EventHub;
  readonly jobs: JobRunner;
  readonly writes: WriteGate;
  /** Exports waiting to be downloaded (export.write with `download`; src/main/export/downloads.ts). */
  readonly downloads: DownloadStore;
  /** The file behind an upload id (serve mode); a readable error elsewhere. */
  resolveUpload(uploadId: string, name: string): string;
  /** Whether serve mode signs this name in with a token it holds in memory (--tokens-file, --token). */
  signsInWithServerToken(name: string): boolean;
  /** The stored BM25 index changed (an import, an undo): the app and serve mode load it again in the background (work.ts preloadIndex). */
  indexChanged(): void;
}
