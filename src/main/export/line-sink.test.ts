/**
 * The sinks an export's lines go to (line-sink.ts): a streamed file holds exactly the kept lines joined,
 * over chunk boundaries and multi-byte characters; a preview keeps its first lines only, counting all.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileSink, headSink, memorySink, removeTempFiles, tempFileName } from './line-sink';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-line-sink-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('export line sinks', () => {
  it('a file sink writes the bytes of the kept lines joined, over several chunks, with multi-byte text', () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `{"id":"q${i}","t":"Réseau coupé 📶 ${'é'.repeat(i % 700)}"}`);
    const mem = memorySink();
    const target = path.join(dir, 'p.jsonl');
    const file = fileSink(tempFileName(target, 'tok'), target);
    for (const l of lines) {
      mem.push(l);
      file.push(l);
    }
    file.close();
    file.close(); // once: a second close does nothing
    const whole = mem.kept!.join('\n') + '\n';
    expect(Buffer.byteLength(whole)).toBeGreaterThan(2 << 20);
    expect(readFileSync(file.temp, 'utf8') === whole).toBe(true);
    expect([file.count, file.bytes, file.kept]).toEqual([3000, Buffer.byteLength(whole), null]);
    expect(path.basename(file.temp)).toBe('.p.jsonl.tok.tmp');
  });

  it('a preview keeps its first lines and counts them all (it kept every line of the file and sliced them)', () => {
    const head = headSink(2);
    for (let i = 0; i < 5; i++) head.push(`line ${i}`);
    expect(head.kept).toEqual(['line 0', 'line 1']);
    expect(head.count).toBe(5);
  });

  it('a stopped export\'s temporary files are removed by its token, and only its own', () => {
    for (const n of ['.p.jsonl.tok.tmp', '.p.jsonl.other.tmp', 'p.jsonl.tok.tmp', 'keep.txt']) writeFileSync(path.join(dir, n), 'x');
    removeTempFiles([dir, path.join(dir, 'missing')], 'tok');
    expect(namesInDir()).toEqual(['.p.jsonl.other.tmp', 'keep.txt', 'p.jsonl.tok.tmp']);
  });
});

function namesInDir(): string[] {
  return readdirSync(dir).sort();
}
