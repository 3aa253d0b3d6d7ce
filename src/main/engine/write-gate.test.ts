import { describe, it, expect } from 'vitest';
import { WriteGate, type GateTurns } from './write-gate';

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('write gate', () => {
  it('runs writes one at a time, in request order, sync or async', async () => {
    const gate = new WriteGate();
    const log: string[] = [];
    const a = gate.run(async () => {
      log.push('a start');
      await tick();
      log.push('a end');
      return 1;
    });
    const b = gate.run(() => {
      log.push('b');
      return 2;
    });
    const c = gate.run(() => {
      throw new Error('c failed');
    });
    expect(gate.busy).toBe(true);
    await expect(a).resolves.toBe(1);
    await expect(b).resolves.toBe(2);
    await expect(c).rejects.toThrow('c failed');
    expect(log).toEqual(['a start', 'a end', 'b']);
    expect(gate.busy).toBe(false);
  });

  it('lets short writes in between the chunks of a long write, which then resumes', async () => {
    const gate = new WriteGate();
    const log: string[] = [];
    let turns!: GateTurns;
    let chunk!: () => void;
    const long = gate.long(async (t) => {
      turns = t;
      for (let i = 1; i <= 3; i++) {
        log.push(`chunk ${i}`);
        await new Promise<void>((r) => (chunk = r));
        if (t.contended) log.push('contended');
        t.release();
        await t.acquire();
      }
      return 'imported';
    });
    await tick();
    const label = gate.run(() => log.push('label'));
    await tick();
    expect(log).toEqual(['chunk 1']); // the label waits for the chunk, not for the import
    chunk();
    await label;
    await tick();
    expect(log).toEqual(['chunk 1', 'contended', 'label', 'chunk 2']);
    chunk();
    await tick();
    chunk();
    await expect(long).resolves.toBe('imported');
    expect(turns.contended).toBe(false);
    expect(gate.longWriteActive).toBe(false);
  });

  it('runs long writes one after the other; afterLongWrites gives a holder’s turn up until they end', async () => {
    const gate = new WriteGate();
    const log: string[] = [];
    const releases: Array<() => void> = [];
    const importing = (name: string) =>
      gate.long(async (t) => {
        log.push(`${name} start`);
        await new Promise<void>((r) => releases.push(r));
        t.release();
        await t.acquire();
        log.push(`${name} end`);
      });
    const first = importing('A');
    await tick();
    // A pool creation requested during the import: it holds the gate, then waits for the import.
    const pool = gate.run(async () => {
      log.push('pool asks');
      await gate.afterLongWrites();
      log.push('pool runs');
      expect(gate.longWriteActive).toBe(false);
    });
    const second = importing('B');
    const label = gate.run(() => log.push('label'));
    await tick();
    releases.shift()!(); // A's chunk ends: the queued short writes go in
    await label;
    await first;
    await tick();
    // The label went in between A's chunks; the pool gave its turn up until A ended.
    expect(log).toEqual(['A start', 'pool asks', 'label', 'A end', 'B start']);
    releases.shift()!();
    await second;
    await pool;
    // B was requested before the pool could resume, so the pool waited for B as well.
    expect(log).toEqual(['A start', 'pool asks', 'label', 'A end', 'B start', 'B end', 'pool runs']);
    expect(gate.busy).toBe(false);
  });

  it('afterLongWrites outside any holder just waits for the running long write', async () => {
    const gate = new WriteGate();
    await gate.afterLongWrites(); // nothing runs: at once
    let end!: () => void;
    const long = gate.long(() => new Promise<void>((r) => (end = r)));
    await tick();
    let waited = false;
    const w = gate.afterLongWrites().then(() => (waited = true));
    await tick();
    expect(waited).toBe(false);
    end();
    await long;
    await w;
    expect(waited).toBe(true);
  });

  it('a holder letting waiting writes run: the short writes waiting go first, a long write queued waits until the holder is done', async () => {
    const gate = new WriteGate();
    const log: string[] = [];
    let step!: () => void;
    const holder = gate.run(async (letWaitingWritesRun) => {
      log.push('retrieve 1');
      await new Promise<void>((r) => (step = r));
      await letWaitingWritesRun();
      log.push('retrieve 2');
      await letWaitingWritesRun(); // nothing waits: goes on at once
      log.push('write pool');
    });
    await tick();
    const label = gate.run(() => log.push('label'));
    const imported = gate.long(async () => {
      log.push('import');
    });
    const later = gate.run(() => log.push('label after the import'));
    await tick();
    expect(log).toEqual(['retrieve 1']);
    step();
    await label;
    await holder;
    await imported;
    await later;
    expect(log).toEqual(['retrieve 1', 'label', 'retrieve 2', 'write pool', 'import', 'label after the import']);
    expect(gate.busy).toBe(false);
  });
});

