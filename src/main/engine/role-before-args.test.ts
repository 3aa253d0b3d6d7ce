/**
 * A command the caller's role may not call is refused as forbidden before its arguments are read:
 * an annotator sending an owner-only command with bad arguments got the argument checks' 400
 * ("pool: Required" …), which told her what the command takes, instead of the 403 its role gets.
 */
import { describe, expect, it } from 'vitest';
import { ContractError } from '../../shared/contract';
import { engineOn, useFreshEngine } from './test-engine';
import type { Engine } from './engine';

let engine: Engine;
useFreshEngine('qpairs-role-first-', (dir) => engineOn(dir, (ws) => ws.ensureAnnotator('alice', 'annotator')), (e) => (engine = e));

const alice = { annotator: 'alice', local: false };
const refusal = async (command: string, args: unknown, caller?: typeof alice): Promise<ContractError> => {
  const e = await engine.invoke(command, args, caller).then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ContractError);
  return e as ContractError;
};

describe('the role is checked before the arguments', () => {
  it('an annotator gets 403 for an owner-only command, whatever its arguments', async () => {
    for (const args of [{}, { pool: 42 }, { nonsense: true }, null]) {
      const e = await refusal('pool.create', args, alice);
      expect([e.code, e.message]).toEqual(['forbidden', 'pool.create is for the owner; "alice" (annotator) may not']);
    }
    expect((await refusal('annotator.setRole', { name: 5 }, alice)).code).toBe('forbidden');
  });

  it('the owner still gets the argument checks', async () => {
    expect((await refusal('pool.create', { pool: 42 })).code).toBe('invalid-argument');
  });
});
