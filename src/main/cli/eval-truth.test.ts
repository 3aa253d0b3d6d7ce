import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli, runCliOk, runEvalNothing } from './test-cli';
import { Engine } from '../engine/engine';
import type { PoolEvaluation } from '../../shared/contract';
import { percentPoints } from './commands/eval';
import { fmtP } from './commands/common';
import { everyGradeSimilarNote } from '../../shared/labels';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-cli-eval-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ok = runCliOk;

/**
 * Pool p: q1 (a, b, c) fully labeled by alice, q2 (d, e, f) with 2 of 3 labels, q3 (g, h) labeled
 * with "?" on h (labeled, unjudged → fully labeled); a run "alt".
 */
async function workspace(w: string): Promise<void> {
  await ok('init', w);
  const rows = ['query_id,candidate_id,annotator,label'];
  for (const [k, v] of Object.entries({ 'q1,a': '0', 'q1,b': '1', 'q1,c': '0', 'q2,d': '1', 'q2,e': '0', 'q3,g': '1', 'q3,h': '?' })) rows.push(`${k},alice,${v}`);
  // f is in the pool (labeled by carol only), so q2 has three candidates
  rows.push('q2,f,carol,1');
  writeFileSync(path.join(dir, 'l.csv'), rows.join('\n') + '\n');
  await ok('import', w, '--format', 'labels-csv', '--pool', 'p', '--scheme', 'binary', path.join(dir, 'l.csv'));
  const lines: string[] = [];
  const order: Record<string, string[]> = { q1: ['a', 'b', 'c'], q2: ['f', 'e', 'd'], q3: ['h', 'g'] };
  for (const [q, cs] of Object.entries(order)) cs.forEach((c, i) => lines.push(`${q} Q0 ${c} ${i + 1} ${10 - i} alt`));
  writeFileSync(path.join(dir, 'r.run'), lines.join('\n') + '\n');
  await ok('import', w, '--format', 'trec-run', '--pool', 'p', path.join(dir, 'r.run'));
}

describe('eval tells the truth (issue 13)', () => {
  it('the first line of eval and of eval --compare names the tie rule and the grade from which a label is similar', async () => {
    const w = path.join(dir, 'w.qpairs');
    await workspace(w);
    const evText = await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--ties', 'trec-eval', '--threshold', '2');
    expect(evText.split('\n')[0]).toMatch(/, ties trec-eval, similar from grade 2$/);
    writeFileSync(path.join(dir, 'rev.run'), 'q1 Q0 c 1 3 rev\nq1 Q0 b 2 2 rev\nq1 Q0 a 3 1 rev\nq3 Q0 g 1 2 rev\nq3 Q0 h 2 1 rev\n');
    await ok('import', w, '--format', 'trec-run', '--pool', 'p', path.join(dir, 'rev.run'));
    const cmp = await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--convention', 'zero', '--compare', 'alt,rev', '--ties', 'trec-eval');
    expect(cmp.split('\n')[0]).toBe('pool p: AP per query over 2 queries (labels of alice, convention zero, ties trec-eval, similar from grade 1)');
  });

  it('says how many counted queries have no similar candidate under convention zero, and when none has one that every 0 measures nothing (CLI, --json, engine)', async () => {
    const w = path.join(dir, 'w.qpairs');
    await workspace(w);
    // alice's fully labeled q1 and q3 each have one similar candidate: nothing to say.
    const plain = await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--convention', 'zero');
    expect(plain).not.toMatch(/no similar candidate/);
    expect(JSON.parse(await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--convention', 'zero', '--json')).withoutRelevant).toBe(0);
    // From grade 2 no label of this binary pool is similar: 0.00 everywhere, and the CLI says why.
    const none = await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--convention', 'zero', '--threshold', '2');
    expect(none).toContain("! none of the 2 queries counted has a similar candidate (grade 2 or above) in the labels of alice: every figure is 0 whatever the runs' order (convention zero)");
    expect(JSON.parse(await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--convention', 'zero', '--threshold', '2', '--json'))).toMatchObject({ labeledQueries: 2, withoutRelevant: 2 });
    // dave finds nothing similar in q1 but g in q3: one of his two queries counts 0.
    writeFileSync(path.join(dir, 'dave.csv'), 'query_id,candidate_id,annotator,label\nq1,a,dave,0\nq1,b,dave,0\nq1,c,dave,0\nq3,g,dave,1\nq3,h,dave,0\n');
    await ok('import', w, '--format', 'labels-csv', '--pool', 'p', path.join(dir, 'dave.csv'));
    const dave = await ok('eval', w, '--pool', 'p', '--annotator', 'dave', '--convention', 'zero');
    expect(dave.split('\n')[2]).toBe('1 of them has no similar candidate: it counts 0 in every metric (convention zero)');
    expect(dave).not.toMatch(/! none of/);
    const engine = Engine.open(w, { transport: 'electron' });
    try {
      const ev = (await engine.invoke('eval.pool', { pool: 'p', annotator: 'alice', convention: 'zero', threshold: 2 })) as PoolEvaluation;
      expect(ev).toMatchObject({ labeledQueries: 2, withoutRelevant: 2 });
    } finally {
      engine.close();
    }
  });

  it('says when the threshold takes every grade of the scheme, so that every labeled candidate is similar and the figures measure no order', async () => {
    const w = path.join(dir, 'w.qpairs');
    await workspace(w);
    // From grade 0 of this binary pool alice's 0s are similar too: alt scores 100.00 on q1 and q3 whatever it ranks.
    const all = await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--threshold', '0');
    expect(all).toContain(
      `! similar from grade 0 takes every grade of the binary scheme (0 to 1): every labeled candidate counts as similar, so the figures do not measure the runs' order (only "?" and unlabeled candidates are not similar)`,
    );
    expect(await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--threshold', '-1')).toContain('! similar from grade -1 takes every grade of the binary scheme');
    // From grade 1 (the default) and above, nothing to say.
    expect(await ok('eval', w, '--pool', 'p', '--annotator', 'alice')).not.toContain('takes every grade');
    expect(await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--threshold', '0.5')).not.toContain('takes every grade');
    expect(everyGradeSimilarNote('likert5', -2)).toMatch(/^similar from grade -2 takes every grade of the likert5 scheme \(-2 to 2\)/);
    expect(everyGradeSimilarNote('likert5', -1)).toBeNull();
    expect(everyGradeSimilarNote('semeval3', 0)).toMatch(/semeval3 scheme \(0 to 2\)/);
    // Graded pools have no lowest grade.
    expect(everyGradeSimilarNote('graded', -5)).toBeNull();
  });

  it('eval --compare lists what its bare figures hide: an interval from one query, a p that is n/a, a t-test p of 0 from equal differences', async () => {
    const w = path.join(dir, 'w.qpairs');
    await workspace(w);
    // "best" puts the similar candidate first in q1 and q3; "alt" puts it second in both: AP 1 vs 0.5, the same gain twice.
    writeFileSync(path.join(dir, 'best.run'), 'q1 Q0 b 1 3 best\nq1 Q0 a 2 2 best\nq1 Q0 c 3 1 best\nq3 Q0 g 1 2 best\nq3 Q0 h 2 1 best\n');
    await ok('import', w, '--format', 'trec-run', '--pool', 'p', path.join(dir, 'best.run'));
    const two = await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--convention', 'zero', '--compare', 'best,alt');
    expect(two).toContain('  best–alt p (t): all differences are equal and non-zero (zero variance): p = 0 in the limit');
    // erin labels q3 alone: one query, so the bootstrap interval is that query's difference and the t-test has no p.
    writeFileSync(path.join(dir, 'erin.csv'), 'query_id,candidate_id,annotator,label\nq3,g,erin,1\nq3,h,erin,0\n');
    await ok('import', w, '--format', 'labels-csv', '--pool', 'p', path.join(dir, 'erin.csv'));
    const one = await ok('eval', w, '--pool', 'p', '--annotator', 'erin', '--convention', 'zero', '--compare', 'best,alt');
    expect(one).toMatch(/best\s+alt\s+50\.00\s+\[50\.00, 50\.00\]\s+n\/a/);
    expect(one).toContain('  best–alt 95% CI: percentile bootstrap, 1000 resamples; only one query, so every resample is the original sample');
    expect(one).toContain('  best–alt p (t): a paired t-test needs at least 2 pairs');
    // Over two queries the interval is an ordinary one: nothing to add about it.
    expect(two).not.toMatch(/95% CI: /);
  });

  it('a run that scores none of a query\'s candidates is flagged: it is ranked in pool order there (engine and CLI)', async () => {
    const w = path.join(dir, 'w.qpairs');
    await workspace(w);
    // "part" scores q1 only: q3 (counted) is ranked in pool order, which here puts g first — AP 0.5 for free.
    writeFileSync(path.join(dir, 'part.run'), 'q1 Q0 b 1 5 part\nq1 Q0 a 2 4 part\nq1 Q0 c 3 3 part\n');
    await ok('import', w, '--format', 'trec-run', '--pool', 'p', path.join(dir, 'part.run'));
    const cli = JSON.parse(await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--convention', 'zero', '--json'));
    expect(cli.runs.part).toMatchObject({ queries: 2, unscoredQueries: 1 });
    expect(cli.runs.alt.unscoredQueries).toBeUndefined();
    expect(await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--convention', 'zero')).toMatch(/! part: scores no candidate of 1 of its 2 queries — ranked in the pool's order there/);
    // --compare flags it the same way, over the queries it compares (alice's fully labeled q1 and q3).
    const cmp = JSON.parse(await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--convention', 'zero', '--compare', 'part,alt', '--json'));
    expect(cmp.queries).toBe(2);
    expect(cmp.runs).toEqual([
      expect.objectContaining({ name: 'part', unscoredQueries: 1 }),
      expect.not.objectContaining({ unscoredQueries: expect.anything() }),
    ]);
    const cmpText = await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--convention', 'zero', '--compare', 'part,alt');
    expect(cmpText).toContain("! part: scores no candidate of 1 of its 2 queries — ranked in the pool's order there");
    expect(cmpText).not.toMatch(/! alt: scores no candidate/);
    const engine = Engine.open(w, { transport: 'electron' });
    try {
      const ev = (await engine.invoke('eval.pool', { pool: 'p', annotator: 'alice', convention: 'zero' })) as PoolEvaluation;
      expect(ev.runs.part).toMatchObject({ unscoredQueries: 1 });
    } finally {
      engine.close();
    }
  });

  it('a run that gives every candidate of a query the same score (a model that learned nothing, or questions without text) is flagged: it is ranked by the tie rule there (engine and CLI)', async () => {
    const w = path.join(dir, 'w.qpairs');
    await workspace(w);
    // "flat" scores every candidate 0: in pool order that puts b second in q1 and g second in q3 — AP 0.5 each, as "part" gets for free.
    const lines: string[] = [];
    for (const [q, cs] of Object.entries({ q1: ['a', 'b', 'c'], q2: ['f', 'e', 'd'], q3: ['h', 'g'] })) cs.forEach((c, i) => lines.push(`${q} Q0 ${c} ${i + 1} 0 flat`));
    // "onetop" tells one candidate of q1 apart from the rest: not uniform there.
    lines.push('q1 Q0 b 1 2 onetop', 'q1 Q0 a 2 1 onetop', 'q1 Q0 c 3 1 onetop');
    writeFileSync(path.join(dir, 'flat.run'), lines.join('\n') + '\n');
    await ok('import', w, '--format', 'trec-run', '--pool', 'p', path.join(dir, 'flat.run'));
    const cli = JSON.parse(await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--convention', 'zero', '--json'));
    expect(cli.runs.flat).toMatchObject({ queries: 2, uniformQueries: 2 });
    expect(cli.runs.flat.unscoredQueries).toBeUndefined();
    expect(cli.runs.alt.uniformQueries).toBeUndefined();
    expect(cli.runs.onetop.uniformQueries).toBeUndefined();
    expect(cli.runs.onetop.unscoredQueries).toBe(1);
    const text = await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--convention', 'zero');
    expect(text).toMatch(/! flat: gives every candidate the same score in 2 of its 2 queries — ranked in the pool's order there, as if unscored/);
    expect(text).not.toMatch(/! (alt|onetop): gives every candidate/);
    expect(await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--convention', 'zero', '--ties', 'trec-eval')).toMatch(
      /! flat: gives every candidate the same score in 2 of its 2 queries — ranked in descending id order \(the trec-eval tie rule\) there/,
    );
    // --compare flags it the same way, over the queries it compares (alice's fully labeled q1 and q3).
    const cmp = JSON.parse(await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--convention', 'zero', '--compare', 'flat,alt', '--json'));
    expect(cmp.queries).toBe(2);
    expect(cmp.runs).toEqual([
      expect.objectContaining({ name: 'flat', uniformQueries: 2 }),
      expect.not.objectContaining({ uniformQueries: expect.anything() }),
    ]);
    const cmpText = await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--convention', 'zero', '--compare', 'flat,alt');
    expect(cmpText).toContain("! flat: gives every candidate the same score in 2 of its 2 queries — ranked in the pool's order there, as if unscored");
    expect(cmpText).not.toMatch(/! alt: gives every candidate/);
    // The difference column says its direction: a's mean minus b's, as the app's "A − B".
    const cmpLines = cmpText.split('\n');
    const head = cmpLines.findIndex((l) => l.startsWith('a ') && l.includes('95% CI'));
    expect(cmpLines[head]!.trim().split(/\s{2,}/).slice(0, 3)).toEqual(['a', 'b', 'a − b']);
    const row = cmpLines[head + 2]!.trim().split(/\s+/);
    const mean = (n: string): number => 100 * cmp.runs.find((r: { name: string }) => r.name === n).mean;
    expect(row.slice(0, 2)).toEqual(['flat', 'alt']);
    expect(Number(row[2])).toBeCloseTo(mean('flat') - mean('alt'), 2);
    expect(await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--convention', 'zero', '--ties', 'trec-eval', '--compare', 'alt,flat')).toContain(
      '! flat: gives every candidate the same score in 2 of its 2 queries — ranked in descending id order (the trec-eval tie rule) there',
    );
    const engine = Engine.open(w, { transport: 'electron' });
    try {
      const ev = (await engine.invoke('eval.pool', { pool: 'p', annotator: 'alice', convention: 'zero' })) as PoolEvaluation;
      expect(ev.runs.flat).toMatchObject({ uniformQueries: 2 });
      expect(ev.runs.alt!.uniformQueries).toBeUndefined();
    } finally {
      engine.close();
    }
  });

  it('an annotator name nobody has (a typo) is refused by `qpairs eval`, plain and --compare; one without labels still evaluates, and the engine evaluates a person before their first label', async () => {
    const w = path.join(dir, 'w.qpairs');
    await workspace(w);
    for (const extra of [[], ['--compare', 'alt,alt2']]) {
      const r = await runCli('eval', w, '--pool', 'p', '--annotator', 'alcie', ...extra);
      expect(r.code, r.err).toBe(1);
      expect(r.err).toBe('qpairs eval: no annotator named "alcie" (label sources: alice, carol, @aggregate)\n');
    }
    // The app's Annotate panel evaluates a person before their first label (no annotator row yet): the engine takes any name.
    const engine = Engine.open(w, { transport: 'electron' });
    try {
      const ev = (await engine.invoke('eval.pool', { pool: 'p', annotator: 'newcomer', partial: true })) as PoolEvaluation;
      expect(ev.annotator).toBe('newcomer');
      expect(ev.labeledQueries).toBe(0);
    } finally {
      engine.close();
    }
    await ok('annotators', 'add', w, 'dora');
    expect((await runEvalNothing('eval', w, '--pool', 'p', '--annotator', 'dora')).out).toContain('metrics undefined: dora has no labels in pool "p"');
  });

  it("prints each metric's 95% CI under the table, as --json gives it ('—' where a run has too few queries)", async () => {
    const w = path.join(dir, 'w.qpairs');
    await workspace(w);
    const args = ['eval', w, '--pool', 'p', '--annotator', 'alice', '--convention', 'zero', '--partial'];
    const cli = JSON.parse(await ok(...args, '--json'));
    // q1 AP 1/2, q2 AP 1/3 (d, the relevant one, is third), q3 AP 1/2: an interval of width > 0.
    const [lo, hi] = cli.runs.alt.ci.MAP as [number, number];
    expect(lo).toBeLessThan(cli.runs.alt.MAP);
    expect(hi).toBeGreaterThan(cli.runs.alt.MAP);
    const text = await ok(...args);
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.startsWith('95% CIs (Student t'));
    expect(at, text).toBeGreaterThan(0);
    expect(lines[at + 1]!.trim().split(/\s+/)).toEqual(['run', 'MAP', 'MRR', 'P@1', 'P@5', 'R-Prec']);
    const row = lines.slice(at + 2).find((l) => l.startsWith('alt '))!.trim().split(/\s+/);
    // Where every query scores the same (P@5 here) there is no interval: '—', null in --json.
    const range = (ci: [number, number] | null): string => (ci ? `${(100 * ci[0]).toFixed(2)}–${(100 * ci[1]).toFixed(2)}` : '—');
    expect(cli.runs.alt.ci['P@5']).toBeNull();
    expect(row).toEqual(['alt', ...(['MAP', 'MRR', 'P@1', 'P@5', 'R-Prec'] as const).map((k) => range(cli.runs.alt.ci[k]))]);
    // A source without labels: no queries, no interval.
    await ok('annotators', 'add', w, 'nobody');
    const none = (await runEvalNothing('eval', w, '--pool', 'p', '--annotator', 'nobody')).out.split('\n');
    const noneAt = none.findIndex((l) => l.startsWith('95% CIs'));
    expect(none[noneAt + 3]!.trim().split(/\s+/)).toEqual(['alt', '—', '—', '—', '—', '—']);
  });

  it('prints percent points with two decimals, a value that rounds to zero as 0.00 (a CI bound of -0.00004 printed -0.00)', () => {
    expect(percentPoints(0.71354)).toBe('71.35');
    expect(percentPoints(-0.021)).toBe('-2.10');
    expect(percentPoints(-0.00004)).toBe('0.00');
    expect(percentPoints(0)).toBe('0.00');
  });

  it('prints a p-value below 0.0001 as <0.0001, not 0.0000 (p = 9e-6 read as exactly 0), and 0 only when it is 0', () => {
    expect(fmtP({ value: 9e-6 })).toBe('<0.0001');
    expect(fmtP({ value: 0.00012 })).toBe('0.0001');
    expect(fmtP({ value: 0.0398 })).toBe('0.0398');
    expect(fmtP({ value: 0 })).toBe('0');
    expect(fmtP({ value: null })).toBe('n/a');
  });

  it('a pool of labels without runs says it has nothing to rank, not an empty table', async () => {
    const w = path.join(dir, 'w.qpairs');
    await ok('init', w);
    writeFileSync(path.join(dir, 'g.qrels'), 'q1 0 a 1\nq1 0 b 0\n');
    await ok('import', w, '--format', 'qrels', '--pool', 'g', path.join(dir, 'g.qrels'));
    const out = await ok('eval', w, '--pool', 'g');
    expect(out).toContain('pool g has no runs to evaluate: import one (qpairs import W --format trec-run FILE --pool g) or score a model on it (qpairs score W --model NAME --pool g)');
    expect(out).not.toMatch(/^run +queries/m);
    expect(JSON.parse(await ok('eval', w, '--pool', 'g', '--json')).runs).toEqual({});
  });

  it('counts only fully labeled queries by default ("?" counts as labeled), partial on request; CLI --json and engine agree', async () => {
    const w = path.join(dir, 'w.qpairs');
    await workspace(w);
    const cli = JSON.parse(await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--convention', 'zero', '--json'));
    expect(cli).toMatchObject({ annotator: 'alice', annotatorChosenBy: 'caller', partial: false, labeledQueries: 2, fullyLabeledQueries: 2, partiallyLabeledQueries: 1, totalQueries: 3, reason: null });
    // q1: relevant b at rank 2 → AP 0.5; q3: g at rank 2 (h is "?", not relevant) → AP 0.5
    expect(cli.runs.alt).toMatchObject({ queries: 2, MAP: 0.5, MRR: 0.5 });
    const cliPartial = JSON.parse(await ok('eval', w, '--pool', 'p', '--annotator', 'alice', '--convention', 'zero', '--partial', '--json'));
    expect(cliPartial).toMatchObject({ partial: true, labeledQueries: 3 });
    expect(cliPartial.labeling).toMatch(/unlabeled candidates .* not similar/);
    expect(await ok('eval', w, '--pool', 'p', '--annotator', 'alice')).toMatch(/2 of 3 queries counted[\s\S]*1 partially labeled query left out/);
    // An annotator of the workspace who labeled nothing here (a name nobody has is refused: see above).
    await ok('annotators', 'add', w, 'nobody');

    const engine = Engine.open(w, { transport: 'electron' });
    try {
      for (const [args, fromCli] of [
        [{ pool: 'p', annotator: 'alice', convention: 'zero' }, cli],
        [{ pool: 'p', annotator: 'alice', convention: 'zero', partial: true }, cliPartial],
      ] as const) {
        const ev = (await engine.invoke('eval.pool', args)) as PoolEvaluation;
        const { curve, ...rest } = ev;
        expect(curve.length).toBe(ev.labeledQueries);
        expect(rest).toEqual(fromCli);
      }
      // The default source is the same rule for both (no gold labels here: the aggregate).
      const dflt = (await engine.invoke('eval.pool', { pool: 'p' })) as PoolEvaluation;
      const cliDefault = JSON.parse(await ok('eval', w, '--pool', 'p', '--json'));
      expect(dflt.annotatorChosenBy).toBe('default');
      expect(cliDefault.annotator).toBe(dflt.annotator);

      // A source without labels: metrics null with a reason, not 0.
      const none = (await engine.invoke('eval.pool', { pool: 'p', annotator: 'nobody' })) as PoolEvaluation;
      expect(none.reason).toMatch(/nobody has no labels in pool "p"/);
      expect(none.runs.alt).toMatchObject({ queries: 0, MAP: null, MRR: null, 'P@1': null, 'P@5': null, 'R-Prec': null });
      expect(none.runs.alt!.reason).toBe(none.reason);
    } finally {
      engine.close();
    }
    expect((await runEvalNothing('eval', w, '--pool', 'p', '--annotator', 'nobody')).out).toMatch(/metrics undefined: nobody has no labels[\s\S]*alt\s+│?\s*0\s+│?\s*—/);
  });
});
