/**
 * Names that look the same are one person: "Zoë" typed precomposed (NFC) or as e + U+0308 (NFD)
 * names the same person wherever a name is taken; new names are stored in NFC, names stored
 * before keep their spelling and are found by either.
 */
import { describe, expect, it } from 'vitest';
import type { Engine } from './engine';
import { useTeamEngine } from './test-team';
import { parseTokenSpecs } from '../serve/auth';
import { addAnnotator, assignPool } from '../gold/store';

const NFC = 'Zo\u00eb';
const NFD = 'Zoe\u0308';

describe('a person’s name in NFC and NFD is one person', () => {
  let engine: Engine;
  useTeamEngine('qpairs-names-', (e) => (engine = e));
  const zoes = (): string[] => engine.ws.listAnnotators().map((a) => a.name).filter((n) => n.normalize('NFC') === NFC);

  it('invite, add, assign, label.set and import’s annotator take either spelling as one person, stored in NFC', async () => {
    const inv = (await engine.invoke('annotator.invite', { name: NFD })) as { name: string; created: boolean };
    expect(inv.name).toBe(NFC);
    expect(await engine.invoke('annotator.add', { name: NFC, role: 'judge' })).toEqual({ name: NFC, role: 'judge' });
    await engine.invoke('pool.assign', { pool: 'open', annotators: [NFD, 'alice', NFC] });
    expect(((await engine.invoke('pool.assignment', { pool: 'open' })) as { annotators: string[] }).annotators.sort()).toEqual(['alice', NFC].sort());
    await engine.invoke('label.set', { pool: 'open', queryId: 'q1', candidateId: 'c1', annotator: NFD, value: '2' });
    expect(zoes()).toEqual([NFC]);
    // Her own link acts as her whichever way a tokens file or a request spells her.
    expect(Object.keys(parseTokenSpecs([`${NFD}=secret-of-zoe`]).tokens)).toEqual([NFC]);
    const view = await engine.invoke('annotate.query', { pool: 'open', annotator: NFD, queryId: 'q1' }, { annotator: NFC, local: false });
    expect((view as { candidates: Array<{ id: string; label: string | null }> }).candidates.find((c) => c.id === 'c1')?.label).toBe('2');
    // The CLI's functions (qpairs annotators add, assign) too.
    addAnnotator(engine.ws, NFD);
    assignPool(engine.ws, 'sealed', [NFD], null);
    expect(zoes()).toEqual([NFC]);
  });

  it('a name stored before in NFD keeps its spelling and is found by the NFC one', async () => {
    engine.ws.stmt(`INSERT INTO annotators(name, role, created) VALUES (?, 'annotator', ?)`).run(NFD, new Date().toISOString());
    await engine.invoke('annotator.setRole', { name: NFC, role: 'judge' });
    await engine.invoke('label.set', { pool: 'open', queryId: 'q1', candidateId: 'c1', annotator: NFC, value: '2' });
    expect(zoes()).toEqual([NFD]);
    expect(engine.ws.listAnnotators().find((a) => a.name === NFD)?.role).toBe('judge');
    // A token spelled either way is her, with her role.
    const info = (await engine.invoke('app.info', {}, { annotator: NFC, local: false })) as { role: string; annotator: string };
    expect(info).toMatchObject({ role: 'judge', annotator: NFD });
  });
});
