/**
 * Two judges racing on one pair: jack rules while judy's Review still shows the pair unsettled.
 * review.settle with the ruling judy last saw (ifRuling) is refused, naming who ruled what, where
 * it used to overrule jack's ruling silently; without ifRuling (qpairs label, scripts) the latest
 * ruling counts, as before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isRulingChanged } from '../../shared/ruling-changed';
import { Engine } from '../engine/engine';
import { Workspace } from '../workspace/workspace';
import { addAnnotator, loadPoolState } from '.';

let dir: string;
let ws: Workspace;
let engine: Engine;
const settle = (judge: string, c: string, value: string | null, ifRuling?: { judge: string; value: string } | null) =>
  engine.invoke('review.settle', { pool: 'p', judge, queryId: 'q1', candidateId: c, value, ...(ifRuling !== undefined ? { ifRuling } : {}) });
const judgeOf = (c: string) => loadPoolState(ws, 'p').pairs.find((e) => e.candidateId === c)!.judge;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-ruling-seen-'));
  ws = Workspace.create(path.join(dir, 'r.qpairs'));
  ws.createPool({ name: 'p', scheme: 'binary' });
  ws.addPoolQuery('p', 'q1', ['a', 'b']);
  addAnnotator(ws, 'alice');
  addAnnotator(ws, 'bob');
  addAnnotator(ws, 'judy', 'judge');
  addAnnotator(ws, 'jack', 'judge');
  for (const c of ['a', 'b']) {
    ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: c, annotator: 'alice', value: '1', origin: 'ui' });
    ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: c, annotator: 'bob', value: '0', origin: 'ui' });
  }
  engine = new Engine(ws, { transport: 'electron' });
});
afterEach(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('review.settle with the ruling its judge last saw', () => {
  it("is refused when another judge settled the pair otherwise since, naming who ruled what; jack's ruling stays", async () => {
    await settle('jack', 'a', '0', null);
    // Was saved: judy's 1 overruled jack's 0, which her Review never showed.
    const refused = settle('judy', 'a', '1', null);
    await expect(refused).rejects.toThrow(
      'pair q1 → a of pool "p" was settled meanwhile: jack ruled 0 after you saw it unsettled; your ruling 1 was not saved — rule again to overrule jack, or leave jack\'s ruling',
    );
    expect(isRulingChanged(((await refused.catch((e: Error) => e)) as Error).message)).toBe(true);
    expect(judgeOf('a')).toMatchObject({ annotator: 'jack', value: '0' });
    // Having seen jack's ruling (Review asked), she overrules it.
    await settle('judy', 'a', '1', { judge: 'jack', value: '0' });
    expect(judgeOf('a')).toMatchObject({ annotator: 'judy', value: '1' });
  });

  it("saw jack's 0, but jack changed it to 1 since: refused, saying what she saw", async () => {
    await settle('jack', 'a', '0', null);
    await settle('jack', 'a', '1', { judge: 'jack', value: '0' });
    await expect(settle('judy', 'a', '0', { judge: 'jack', value: '0' })).rejects.toThrow("jack ruled 1 after you saw jack's ruling 0;");
    expect(judgeOf('a')).toMatchObject({ annotator: 'jack', value: '1' });
  });

  it('passes when nothing changed, when the ruling agrees, when it is her own, and when she clears hers', async () => {
    await settle('judy', 'a', '1', null);
    await settle('judy', 'a', '0', null); // her own ruling (another tab): not another judge's
    await settle('jack', 'b', '1', null);
    await settle('judy', 'b', '1', null); // the same value: overrules nothing
    expect(judgeOf('b')).toMatchObject({ annotator: 'judy', value: '1' });
    await settle('judy', 'a', null, null);
    expect(judgeOf('a')).toBeNull();
  });

  it("the outbox's resend of her ruling taken already (its answer lost) is not refused once jack ruled since: it was saved before his", async () => {
    const stamp = { tab: 'tab-judy', n: 1 };
    await engine.invoke('review.settle', { pool: 'p', judge: 'judy', queryId: 'q1', candidateId: 'a', value: '1', ifRuling: null, stamp });
    await settle('jack', 'a', '0', { judge: 'judy', value: '1' });
    const again = await engine.invoke('review.settle', { pool: 'p', judge: 'judy', queryId: 'q1', candidateId: 'a', value: '1', ifRuling: null, stamp });
    expect(again).toMatchObject({ saved: true });
    expect(judgeOf('a')).toMatchObject({ annotator: 'jack', value: '0' });
  });

  it('without ifRuling (qpairs label, scripts) the latest ruling counts, as before', async () => {
    await settle('jack', 'a', '0');
    await settle('judy', 'a', '1');
    expect(judgeOf('a')).toMatchObject({ annotator: 'judy', value: '1' });
  });
});
