/** The words the role-change notes share (role-notes.ts, made-judge-notes.ts): counts and where. */

export type PoolCount = { pool: string; labels: number };

export const count = (n: number, what = 'label'): string => `${n} ${what}${n === 1 ? '' : 's'}`;
export const inPools = (pools: readonly PoolCount[], what = 'label'): string => pools.map((p) => `${p.pool} (${count(p.labels, what)})`).join(', ');
export const labeledOpen = (name: string, pools: readonly PoolCount[]): string => `${name} labeled ${pools.length === 1 ? 'pool' : 'pools'} nobody is assigned to: ${inPools(pools)}`;
export const NO_THIRD_JUDGE = '(who voted on a pair is no third judge of it): another judge settles the pairs in dispute.';
