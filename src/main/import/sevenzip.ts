/**
 * 7-Zip without a 7-Zip program: the npm package `7z-wasm` (7-Zip 24.09 compiled to WebAssembly
 * with Emscripten; GNU LGPL 2.1+ with the unRAR restriction, see node_modules/7z-wasm/License.txt)
 * run in a worker thread, one worker per 7-Zip command.
 *
 * - The archive is never read into memory: the worker mounts the archive's folder with
 *   Emscripten's NODEFS, so 7-Zip reads it through positioned `fs.readSync` calls.
 * - `x -so` (extract to stdout) is streamed: the worker replaces the write operation of file
 *   descriptor 1 (Emscripten's TTY would call back once per byte) with one that copies each block
 *   7-Zip writes (up to 1 MiB) and posts it to the main thread. Flow control: a SharedArrayBuffer
 *   counter holds the bytes posted but not yet taken by the reader; above `limitBytes` the
 *   worker blocks in `Atomics.wait` until the reader takes some. Memory is thus bounded by
 *   `limitBytes` + one block + 7-Zip's own (the LZMA dictionary of the archive, e.g. 16–64 MiB).
 * - The worker runs as an eval'd CommonJS script (WORKER_SOURCE) that `require`s the package by
 *   the path resolved here, so it needs no bundled worker file (vitest, out/node, Electron alike);
 *   the package stays external to the bundles and finds its 7zz.wasm next to 7zz.umd.js.
 * - Cancel: `close()` raises a flag, wakes the worker and terminates it, and waits for its exit.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { CancelledError } from '../errors';

/** Bytes posted by the worker and not yet taken by the reader, at most (then the worker waits). */
export const SEVENZIP_LIMIT_BYTES = 4 * 1024 * 1024;

/** Control words in the shared buffer. */
const IN_FLIGHT = 0;
const CANCEL = 1;

/** What the worker says when 7-Zip's WebAssembly build stops on an exception of its own (it throws a bare number). */
export const SEVEN_ZIP_INTERNAL_ERROR = 'an internal error stopped 7-Zip';

/**
 * The worker (CommonJS, eval'd). workerData: lib (path of 7zz.umd.js), wasm (the compiled
 * WebAssembly.Module), dir (host folder mounted
 * as the working folder /w), args (7-Zip's command line), stream (pipe stdout to the parent),
 * control (SharedArrayBuffer: [bytes in flight, cancel]), limit. Posts {t:'data', b} blocks, when
 * streaming each stderr line as it is printed ({t:'err', s}), and one {t:'end', code, out, err}:
 * 7-Zip's exit code and its stdout/stderr text.
 */
const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { lib, dir, args, stream, control, limit } = workerData;
const ctl = new Int32Array(control);
let out = '';
let err = '';
const done = (code, extra) => parentPort.postMessage({ t: 'end', code, out, err: extra ? err + extra : err });
// What failed, in words: the WebAssembly build throws a C++ exception it does not catch as a bare number (a truncated
// .zip's listing did: the import said "cannot open the zip archive: 397000").
const why = (e) => (typeof e === 'number' ? '${SEVEN_ZIP_INTERNAL_ERROR}' : String((e && e.message) || e));
try {
  const SevenZip = require(lib);
  const printErr = (s) => {
    err += s + '\n';
    if (stream) parentPort.postMessage({ t: 'err', s });
  };
  const opts = { stdin: () => null, print: (s) => { out += s + '\n'; }, printErr };
  // The module compiled once by the parent: no file to read here (and none inside an asar archive).
  opts.instantiateWasm = (imports, ok) => {
    WebAssembly.instantiate(workerData.wasm, imports).then((inst) => ok(inst, workerData.wasm), (e) => done(-1, why(e)));
    return {};
  };
  SevenZip(opts).then((m) => {
    m.FS.mkdir('/w');
    m.FS.mount(m.NODEFS, { root: dir }, '/w');
    m.FS.chdir('/w');
    if (stream) {
      const s = m.FS.streams[1];
      s.stream_ops = Object.assign({}, s.stream_ops, {
        write(_st, buf, off, len) {
          if (Atomics.load(ctl, ${CANCEL})) throw new m.FS.ErrnoError(29);
          const b = new Uint8Array(buf.buffer, buf.byteOffset + off, len).slice();
          Atomics.add(ctl, ${IN_FLIGHT}, len);
          parentPort.postMessage({ t: 'data', b }, [b.buffer]);
          for (;;) {
            const v = Atomics.load(ctl, ${IN_FLIGHT});
            if (v <= limit || Atomics.load(ctl, ${CANCEL})) break;
            Atomics.wait(ctl, ${IN_FLIGHT}, v, 1000);
          }
          return len;
        },
      });
    }
    let code;
    try {
      code = m.callMain(args.slice());
    } catch (e) {
      done(-1, why(e));
      return;
    }
    done(typeof code === 'number' ? code : -1);
  }, (e) => done(-1, why(e)));
} catch (e) {
  done(-1, why(e));
}
`;

let libPath: string | null = null;

/** Path of the package's CommonJS build (7zz.umd.js; its 7zz.wasm lies beside it). */
export function sevenZipLib(): string {
  if (!libPath) libPath = createRequire(import.meta.url).resolve('7z-wasm');
  return libPath;
}

/**
 * Path of 7zz.wasm: beside 7zz.umd.js; in a packaged app the asar archive's unpacked copy
 * (electron-builder.yml unpacks the .wasm files), read as a real file.
 */
export function sevenZipWasmPath(): string {
  const p = path.join(path.dirname(sevenZipLib()), '7zz.wasm');
  const unpacked = p.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
  return unpacked !== p && existsSync(unpacked) ? unpacked : p;
}

let wasmModule: Promise<WebAssembly.Module> | null = null;

/** 7-Zip's WebAssembly module, compiled once per process and handed to every worker. */
function compiledSevenZip(): Promise<WebAssembly.Module> {
  wasmModule ??= readFile(sevenZipWasmPath())
    .then((b) => WebAssembly.compile(b))
    .catch((e: unknown) => {
      wasmModule = null;
      throw e;
    });
  return wasmModule;
}

/** What a 7-Zip command printed and its exit code (0 ok, 1 warning, 2 fatal error, 7 command line, 8 memory; -1: the worker failed). */
export interface SevenZipResult {
  code: number;
  stdout: string;
  stderr: string;
}

type WorkerMessage = { t: 'data'; b: Uint8Array } | { t: 'err'; s: string } | { t: 'end'; code: number; out: string; err: string };

/** 7-Zip's report of a member that failed (`ERROR: Data Error : Posts.xml`, `ERROR: CRC Failed : Posts.xml`), printed when it is done with that member. */
export const MEMBER_ERROR_RE = /^ERROR: [^:]+ : .+$/;

let live = 0;
let started = 0;

/** 7-Zip workers started and not yet exited (for tests: none may be left behind). */
export function liveSevenZipWorkers(): number {
  return live;
}

/** 7-Zip workers started by this process so far (each runs one 7-Zip command). */
export function sevenZipRuns(): number {
  return started;
}

async function startWorker(dir: string, args: readonly string[], stream: boolean): Promise<{ worker: Worker; ctl: Int32Array }> {
  const wasm = await compiledSevenZip();
  const control = new SharedArrayBuffer(8);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { lib: sevenZipLib(), wasm, dir: path.resolve(dir), args: [...args], stream, control, limit: SEVENZIP_LIMIT_BYTES },
    stdout: true,
    stderr: true,
  });
  live++;
  started++;
  worker.once('exit', () => live--);
  return { worker, ctl: new Int32Array(control) };
}

/**
 * Runs one 7-Zip command with `dir` as the working folder (file arguments relative to it) and
 * returns what it printed (listing, packing). Aborting terminates the worker (CancelledError).
 */
export async function runSevenZip(dir: string, args: readonly string[], signal?: AbortSignal): Promise<SevenZipResult> {
  if (signal?.aborted) throw new CancelledError();
  const { worker } = await startWorker(dir, args, false);
  return new Promise<SevenZipResult>((resolve, reject) => {
    let result: SevenZipResult | null = null;
    const onAbort = (): void => void worker.terminate();
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (m: WorkerMessage) => {
      if (m.t === 'end') {
        result = { code: m.code, stdout: m.out, stderr: m.err };
        void worker.terminate();
      }
    });
    worker.on('error', (e) => {
      result ??= { code: -1, stdout: '', stderr: e.message };
    });
    worker.on('exit', () => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) reject(new CancelledError());
      else resolve(result ?? { code: -1, stdout: '', stderr: 'the 7-Zip worker stopped unexpectedly' });
    });
  });
}

/** A stream of bytes with how many were read, closed early by `close()` (which ends any worker). */
export interface ByteStream extends AsyncIterable<Uint8Array> {
  /** Bytes yielded so far. */
  bytesRead(): number;
  /** Stops reading: ends the worker (if any) and waits for it to exit. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Streams what `7zz <args>` writes to stdout (args should hold `x -so`), in 7-Zip's blocks.
 * `fail(result)` turns a non-zero exit, or a member error 7-Zip prints (MEMBER_ERROR_RE; it
 * prints it when done with that member, and would go on with the next), into the error to throw;
 * it is thrown before the block that preceded the failure is yielded (one block is held back
 * until the next message arrives), so data 7-Zip decoded just before finding the archive corrupt
 * is not handed on.
 * The iteration throws CancelledError when `signal` aborts. Each stream can be iterated once.
 */
export function streamSevenZip(dir: string, args: readonly string[], fail: (r: SevenZipResult) => Error, signal?: AbortSignal): ByteStream {
  let started: { worker: Worker; ctl: Int32Array } | null = null;
  let closed = false;
  let exited: Promise<void> = Promise.resolve();
  let bytes = 0;

  const close = async (): Promise<void> => {
    closed = true;
    if (started) {
      Atomics.store(started.ctl, CANCEL, 1);
      Atomics.notify(started.ctl, IN_FLIGHT);
      void started.worker.terminate();
    }
    await exited;
  };

  async function* iterate(): AsyncGenerator<Uint8Array> {
    if (closed) throw new Error('the stream was closed');
    if (signal?.aborted) throw new CancelledError();
    const s = await startWorker(dir, args, true);
    started = s;
    const queue: WorkerMessage[] = [];
    let wake: (() => void) | null = null;
    let workerError: Error | null = null;
    let gone = false;
    const poke = (): void => {
      const w = wake;
      wake = null;
      w?.();
    };
    exited = new Promise<void>((resolve) => s.worker.once('exit', () => resolve()));
    s.worker.on('message', (m: WorkerMessage) => {
      queue.push(m);
      poke();
    });
    s.worker.on('error', (e) => {
      workerError = e;
      poke();
    });
    s.worker.once('exit', () => {
      gone = true;
      poke();
    });
    const onAbort = (): void => poke();
    signal?.addEventListener('abort', onAbort);
    const next = async (): Promise<WorkerMessage> => {
      for (;;) {
        if (signal?.aborted) throw new CancelledError();
        const m = queue.shift();
        if (m) return m;
        if (workerError) throw workerError;
        if (gone) return { t: 'end', code: -1, out: '', err: 'the 7-Zip worker stopped unexpectedly' };
        await new Promise<void>((resolve) => (wake = resolve));
      }
    };
    let held: Uint8Array | null = null;
    let stderr = '';
    try {
      for (;;) {
        const m = await next();
        if (m.t === 'err') {
          // A member failed: fail now (7-Zip would go on with the next member), before the block held back.
          stderr += `${m.s}\n`;
          if (MEMBER_ERROR_RE.test(m.s)) throw fail({ code: 2, stdout: '', stderr });
          continue;
        }
        if (m.t === 'end') {
          if (m.code !== 0) throw fail({ code: m.code, stdout: m.out, stderr: m.err });
          if (held) {
            bytes += held.length;
            yield held;
          }
          return;
        }
        const prev = held;
        held = m.b;
        if (prev) {
          // The reader takes `prev`: the worker may post more.
          Atomics.sub(s.ctl, IN_FLIGHT, prev.length);
          Atomics.notify(s.ctl, IN_FLIGHT);
          bytes += prev.length;
          yield prev;
        }
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      await close();
    }
  }

  const it = iterate();
  return {
    [Symbol.asyncIterator]: () => it,
    bytesRead: () => bytes,
    close: async () => {
      if (!started) {
        closed = true;
        await it.return(undefined);
        return;
      }
      await close();
    },
  };
}
