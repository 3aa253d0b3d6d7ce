/** Messages between dump-parse-client.ts (the import's thread) and dump-parse-worker.ts. */
import type { QPairsError } from '../errors';
import type { PackedDumpRows } from './dump-rows';

export interface DumpParseWorkerData {
  /** The file's name as errors give it (the worker reads no file: the import's thread sends the bytes). */
  file: string;
}

export type ToDumpParseWorker =
  /** The file's next bytes (reader.ts readByteChunks), in file order; the worker decodes them (utf8-text.ts). */
  | { type: 'bytes'; bytes: Uint8Array }
  /** The file ended. */
  | { type: 'end' };

export type FromDumpParseWorker =
  /** The events of one chunk (sent once the parser asks for the next one; possibly none). */
  | { type: 'rows'; rows: PackedDumpRows }
  /** The file was parsed to its end well-formed (after the last `rows`). */
  | { type: 'done' }
  /** Parsing failed: a QPairsError's message and details (`user`), or an unexpected error. */
  | { type: 'error'; message: string; details?: QPairsError['details']; user: boolean };
