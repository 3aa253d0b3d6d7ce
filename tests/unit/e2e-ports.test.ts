/**
 * The end-to-end specs listen only on the e2e base port (QPAIRS_E2E_PORT, default 27613) plus an
 * offset of their own: no port written as a number (processes.spec used 27651 and 27652 whatever the
 * base, so two runs on two bases could meet there, and with the default base those were two other
 * specs' offsets, 38 and 39), and no offset shared by two specs. Read from the specs' text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const e2e = path.resolve(import.meta.dirname, '../e2e');

/** A port given as a number: `port: 27651`, `'--port', '5180'` (the default base in `?? 27613` is not one). */
function literalPorts(text: string): string[] {
  return [...text.matchAll(/\bport:\s*\d+|'--port',\s*'\d+'/g)].map((m) => m[0]);
}

/** The base-port offsets a spec's text takes: useX('name', N, …), e2ePort(N), `QPAIRS_E2E_PORT ?? 27613) + N`. */
function offsets(text: string): Set<number> {
  const found = [
    ...text.matchAll(/\buse\w+\(\s*'[^']*',\s*(\d+)/g),
    ...text.matchAll(/\be2ePort\((\d+)\)/g),
    ...text.matchAll(/QPAIRS_E2E_PORT \?\? \d+\) \+ (\d+)/g),
  ];
  return new Set(found.map((m) => Number(m[1])));
}

describe('e2e ports', () => {
  it('reads a number port and the offsets in the forms the specs use (the check can fail)', () => {
    const text = "startServe({ port: 27651 }); spawn('x', ['--port', '5180']); const P = Number(process.env.QPAIRS_E2E_PORT ?? 27613) + 3;";
    expect(literalPorts(text)).toEqual(['port: 27651', "'--port', '5180'"]);
    expect(offsets(`${text} useServedWorkspace('a', 7, {}); e2ePort(44);`)).toEqual(new Set([3, 7, 44]));
  });

  it('every spec takes the base port plus offsets of its own, no port written as a number', () => {
    const specs = readdirSync(e2e).filter((f) => f.endsWith('.spec.ts'));
    expect(specs.length).toBeGreaterThan(30);
    const owner = new Map<number, string>([[0, 'the global setup']]);
    const shared: string[] = [];
    const literal: string[] = [];
    for (const spec of specs) {
      const text = readFileSync(path.join(e2e, spec), 'utf8');
      literal.push(...literalPorts(text).map((p) => `${spec}: ${p}`));
      for (const o of offsets(text)) {
        if (owner.has(o)) shared.push(`offset ${o}: ${owner.get(o)} and ${spec}`);
        else owner.set(o, spec);
      }
    }
    expect(literal).toEqual([]);
    expect(shared).toEqual([]);
    expect(owner.size).toBeGreaterThan(30);
  });
});
