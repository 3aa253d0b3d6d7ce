/**
 * Workspace changes that name no pool reached every connected person: an annotator's socket was
 * told of every invite and revoke of anyone (who joins the team, and when, is the owner's business)
 * and of every stored model trained or deleted, those trained on a blind pool's labels too, whose
 * runs she is never shown (run-visibility.ts). Now, in the engine's one filtering place (access.ts
 * canSee): a team change reaches a person only when it is hers; a model's change only an annotator
 * shown its runs. Owners hear all of them. The calls are a token's: not local.
 */
import { describe, expect, it } from 'vitest';
import type { EventPayloads } from '../../shared/contract';
import { LOCAL_OWNER } from './access';
import { addOpenPoolBesideBlind, trainTfidf, useTrainedModels } from './test-models';

const alice = { annotator: 'alice', local: false };
const judy = { annotator: 'judy', local: false };
type Change = EventPayloads['workspace.changed'];
type Who = 'alice' | 'judy' | 'owner';

describe('changes naming no pool, as each person’s event stream carries them', () => {
  const t = useTrainedModels('team-model-events', [], (ws) => {
    addOpenPoolBesideBlind(ws); // p blind (gold labels), o open beside it (bob's labels); alice and bob annotators
    ws.ensureAnnotator('judy', 'judge');
  });

  /** The workspace changes each caller's socket would carry while `act` runs. */
  async function heardDuring(act: () => Promise<void>): Promise<(who: Who) => Change[]> {
    const got: Array<{ who: Who; change: Change }> = [];
    const off = t.engine.hub.on('workspace.changed', (change) => {
      for (const [who, input] of [['alice', alice], ['judy', judy], ['owner', LOCAL_OWNER]] as const) {
        if (t.engine.canSee(input, 'workspace.changed', change)) got.push({ who, change });
      }
    });
    try {
      await act();
    } finally {
      off();
    }
    return (who) => got.filter((g) => g.who === who).map((g) => g.change);
  }

  it('an invite or revoke of someone else reaches the owner only; her own reaches her', async () => {
    const heard = await heardDuring(async () => {
      await t.engine.invoke('annotator.invite', { name: 'bob' });
      await t.engine.invoke('annotator.invite', { name: 'erin', role: 'annotator' });
      await t.engine.invoke('annotator.revoke', { name: 'bob' });
    });
    expect(heard('owner')).toEqual([
      { what: 'team', annotator: 'bob' },
      { what: 'team', annotator: 'erin' },
      { what: 'team', annotator: 'bob' },
    ]);
    expect(heard('alice')).toEqual([]);
    expect(heard('judy')).toEqual([]);
    const own = await heardDuring(async () => {
      await t.engine.invoke('annotator.invite', { name: 'alice' });
      await t.engine.invoke('annotator.revoke', { name: 'alice' });
    });
    expect(own('alice')).toEqual([
      { what: 'team', annotator: 'alice' },
      { what: 'team', annotator: 'alice' },
    ]);
    expect(own('judy')).toEqual([]);
  });

  it('a model trained or deleted reaches an annotator only when she is shown its runs (not trained on blind labels)', async () => {
    const heard = await heardDuring(async () => {
      await trainTfidf(t.engine, 'on-blind', ['p']);
      await trainTfidf(t.engine, 'on-open', ['o']);
      await t.engine.invoke('models.delete', { name: 'on-blind' });
      await t.engine.invoke('models.delete', { name: 'on-open' });
    });
    const models = (who: Who): string[] => heard(who).filter((c) => c.model !== undefined).map((c) => `${c.model}${c.blindLabels ? ' (blind labels)' : ''}`);
    expect(models('owner')).toEqual(['on-blind', 'on-open', 'on-blind (blind labels)', 'on-open']);
    expect(models('judy')).toEqual(['on-blind', 'on-open', 'on-blind (blind labels)', 'on-open']);
    expect(models('alice')).toEqual(['on-open', 'on-open']);
    // Nothing else she heard names the blind-trained model.
    expect(JSON.stringify(heard('alice'))).not.toContain('on-blind');
  });
});
