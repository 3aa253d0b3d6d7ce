/**
 * Worker entry (worker_threads) of dump-parse-client.ts: decodes one Stack Exchange dump file's
 * bytes, sent chunk by chunk by the import's thread, as validated UTF-8 (utf8-text.ts: the same
 * errors as reading it on one thread), parses the text with the same row scanner and saxes fallback as an
 * import on one thread (xml-rows.ts parseRowsXmlChunks), converts each row's text (dump-rows.ts
 * prepareDumpRow: HTML → text, the costly part) and posts the rows back packed, one message per
 * chunk. Opens no file and no database. Bundled as its own entry (scripts/build-node.mjs →
 * out/node/dump-parse-worker.mjs; electron.vite.config.ts → out/main/dump-parse-worker.js).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { QPairsError } from '../errors';
import type { DumpParseWorkerData, FromDumpParseWorker, ToDumpParseWorker } from './dump-parse-protocol';
import { DumpRowPacker, dumpRowHandlers } from './dump-rows';
import { Utf8TextDecoder, type TextChunk } from './utf8-text';
import { parseRowsXmlChunks } from './xml-rows';

const port = parentPort;
if (port) {
  const { file } = workerData as DumpParseWorkerData;
  const post = (m: FromDumpParseWorker): void => port.postMessage(m);
  const packer = new DumpRowPacker();
  // Chunks that arrived before the parser asked for them, and the parser waiting for one.
  const queue: ToDumpParseWorker[] = [];
  let waiting: ((m: ToDumpParseWorker) => void) | null = null;
  port.on('message', (m: ToDumpParseWorker) => {
    if (waiting) {
      const w = waiting;
      waiting = null;
      w(m);
    } else queue.push(m);
  });
  const nextMessage = (): Promise<ToDumpParseWorker> => (queue.length > 0 ? Promise.resolve(queue.shift()!) : new Promise((resolve) => (waiting = resolve)));

  async function* chunks(): AsyncGenerator<TextChunk> {
    const text = new Utf8TextDecoder(file);
    // Every chunk is answered by one `rows` message (the client's flow control counts them).
    let answerDue = false;
    for (;;) {
      // The parser asks for the next chunk once the previous one's rows are out: send them.
      if (answerDue) post({ type: 'rows', rows: packer.take() });
      answerDue = false;
      const m = await nextMessage();
      if (m.type === 'end') break;
      const piece = text.push(m.bytes);
      if (piece) {
        answerDue = true;
        yield piece;
      } else post({ type: 'rows', rows: packer.take() }); // bytes that complete no character: no rows
    }
    text.end();
  }

  parseRowsXmlChunks(chunks(), file, dumpRowHandlers(packer)).then(
    () => {
      const rest = packer.take();
      if (rest.lines.length > 0) post({ type: 'rows', rows: rest });
      post({ type: 'done' });
    },
    (e: unknown) => {
      // Rows read before the failure go first: the import handles them (and may fail on one of them first).
      const rest = packer.take();
      if (rest.lines.length > 0) post({ type: 'rows', rows: rest });
      if (e instanceof QPairsError) post({ type: 'error', message: e.message, details: { ...e.details }, user: true });
      else post({ type: 'error', message: (e as Error)?.message ?? String(e), user: false });
    },
  );
}
