import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli, runEvalNothing } from './test-cli';
import { acquireWorkspaceLock } from '../workspace/lock';
import { dataset } from '../../../tests/datasets';
import { meanRuleText } from '../../shared/gold';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-cli-gold-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = runCli;

async function ok(...argv: string[]): Promise<string> {
  const r = await run(...argv);
  expect(r.code, `${argv.join(' ')}: ${r.err}`).toBe(0);
  return r.out;
}

/** A binary pool "p" created from a labels file by two annotators, with a run. */
async function twoAnnotators(w: string): Promise<void> {
  await ok('init', w);
  const labels = path.join(dir, 'labels.csv');
  const rows = ['query_id,candidate_id,annotator,label'];
  const a: Record<string, string> = { 'q1,a': '1', 'q1,b': '1', 'q1,c': '0', 'q2,d': '0', 'q2,e': '1', 'q2,f': '0', 'q3,g': '1', 'q3,h': '0' };
  const b: Record<string, string> = { 'q1,a': '1', 'q1,b': '0', 'q1,c': '0', 'q2,d': '1', 'q2,e': '1', 'q2,f': '0', 'q3,g': '1', 'q3,h': '0' };
  for (const [k, v] of Object.entries(a)) rows.push(`${k},alice,${v}`);
  for (const [k, v] of Object.entries(b)) rows.push(`${k},bob,${v}`);
  writeFileSync(labels, rows.join('\n') + '\n');
  await ok('import', w, '--format', 'labels-csv', '--pool', 'p', '--scheme', 'binary', labels);
  const runFile = path.join(dir, 'r.run');
  const lines: string[] = [];
  const order: Record<string, string[]> = { q1: ['c', 'b', 'a'], q2: ['d', 'e', 'f'], q3: ['g', 'h'] };
  for (const [q, cs] of Object.entries(order)) cs.forEach((c, i) => lines.push(`${q} Q0 ${c} ${i + 1} ${10 - i} alt`));
  writeFileSync(runFile, lines.join('\n') + '\n');
  await ok('import', w, '--format', 'trec-run', '--pool', 'p', runFile);
}

describe('gold CLI commands', () => {
  it('aggregate without --rule only reads: it shows the aggregate while a server holds the workspace; --rule still needs the lock', async () => {
    const w = path.join(dir, 'w.qpairs');
    await twoAnnotators(w);
    const before = await ok('aggregate', w, '--pool', 'p', '--json');
    const lock = acquireWorkspaceLock(w, { command: `qpairs serve ${w} --port 5180` });
    try {
      // As the Pools screen's aggregation panel shows it: the CLI gives the same figures meanwhile.
      expect(await ok('aggregate', w, '--pool', 'p', '--json')).toBe(before);
      const set = await run('aggregate', w, '--pool', 'p', '--rule', 'majority');
      expect(set.code).toBe(1);
      expect(set.err).toMatch(/is being written by/);
      expect(set.err).toMatch(/aggregate W --pool P without --rule/);
    } finally {
      lock.release();
    }
  });

  it('aggregate --threshold goes with the mean rule only: given with another rule it is refused and nothing changes', async () => {
    const w = path.join(dir, 'w.qpairs');
    await twoAnnotators(w);
    const before = await ok('aggregate', w, '--pool', 'p', '--json');
    // Named with another rule: a usage error before the workspace is touched.
    const named = await run('aggregate', w, '--pool', 'p', '--rule', 'majority', '--threshold', '2');
    expect(named.code).toBe(2);
    expect(named.err).toMatch(/--threshold applies to --rule mean only .*not to --rule majority/);
    // Alone, on a pool whose rule is not mean (adjudicated, the default): refused, naming the rule.
    const alone = await run('aggregate', w, '--pool', 'p', '--threshold', '0.3');
    expect(alone.code).toBe(1);
    expect(alone.err).toMatch(/applies to the mean rule only.*pool "p" would use rule adjudicated/);
    expect(await ok('aggregate', w, '--pool', 'p', '--json')).toBe(before);
    // With mean it is kept and shown.
    expect(await ok('aggregate', w, '--pool', 'p', '--rule', 'mean', '--threshold', '0.25')).toContain(`rule mean (${meanRuleText(0.25)});`);
    expect(await ok('aggregate', w, '--pool', 'p', '--threshold', '0.75')).toContain(`rule mean (${meanRuleText(0.75)});`);
  });

  it('label with a value the scheme lacks names the values it takes (it said only "is not a label of the binary scheme")', async () => {
    const w = path.join(dir, 'w.qpairs');
    await twoAnnotators(w);
    const r = await run('label', w, '--pool', 'p', '--annotator', 'alice', '--query', 'q1', '--candidate', 'a', '--value', '5');
    expect(r).toEqual({ code: 1, out: '', err: 'qpairs label: "5" is not a label of the binary scheme of pool "p": give 1, 0, or ? (unsure)\n' });
  });

  it('usage lists the new commands; bad flags are usage errors', async () => {
    const help = (await run('--help')).out;
    for (const c of ['agreement W', 'export W', 'annotators list W', 'assign W', 'adjudicate W', 'label W', 'aggregate W', '--compare R1,R2']) expect(help).toContain(c);
    expect(help).toMatch(/export formats: askubuntu, qrels, trec-run, jsonl, csv, semeval-relevancy, hf-dataset/);
    const w = path.join(dir, 'w.qpairs');
    await ok('init', w);
    expect((await run('export', w, '--pool', 'p', '--format', 'xml', 'out')).code).toBe(2);
    expect((await run('export', w, '--pool', 'p', '--format', 'csv')).err).toMatch(/output file OUT/);
    expect((await run('assign', w, '--pool', 'p')).err).toMatch(/--annotators/);
    // K per query without a seed: a usage error, as pool create --sample (no quiet seed 1).
    expect(await run('assign', w, '--pool', 'p', '--annotators', 'alice,bob', '--per-query', '1')).toEqual({
      code: 2,
      out: '',
      err: 'qpairs assign: --per-query needs --seed S (so the assignment can be reproduced)\nrun "qpairs assign --help" for usage\n',
    });
    expect((await run('label', w, '--pool', 'p', '--annotator', 'a', '--query', 'q', '--candidate', 'c')).err).toMatch(/--value V or --clear/);
    expect((await run('eval', w, '--pool', 'p', '--metric', 'AP')).err).toMatch(/--metric goes with --compare/);
    expect((await run('eval', w, '--pool', 'p', '--compare', 'a')).err).toMatch(/at least two runs/);
    expect((await run('annotators', 'frob', w)).code).toBe(2);
    expect((await run('agreement', w, '--pool', 'nope')).code).toBe(1);
  });

  it('annotators, assign, agreement, adjudicate, label, aggregate, eval and export from the shell', async () => {
    const w = path.join(dir, 'g.qpairs');
    await twoAnnotators(w);
    expect(await ok('annotators', 'add', w, 'judy', '--role', 'judge')).toMatch(/judy: judge/);
    expect((await run('annotators', 'role', w, 'nobody', 'judge')).err).toMatch(/no annotator named "nobody"/);
    expect((await run('annotators', 'add', w, '@aggregate')).err).toMatch(/reserved/);
    // gold and system are not people's roles: the role command goes through the engine's rule.
    expect(await run('annotators', 'role', w, 'alice', 'gold')).toMatchObject({ code: 1, err: expect.stringMatching(/the role "gold" is reserved/) });
    expect((await run('annotators', 'role', w, 'judy', 'system')).err).toMatch(/the role "system" is reserved/);
    const anns = JSON.parse(await ok('annotators', 'list', w, '--json'));
    expect(anns.map((x: { name: string; role: string }) => `${x.name}:${x.role}`)).toEqual(['alice:annotator', 'bob:annotator', 'judy:judge']);

    const asg = JSON.parse(await ok('assign', w, '--pool', 'p', '--annotators', 'alice,bob', '--json'));
    expect(asg).toMatchObject({ mode: 'full', annotators: ['alice', 'bob'], judges: ['judy'] });
    expect(asg.progress.map((p: { doneQueries: number }) => p.doneQueries)).toEqual([3, 3]);
    expect(await ok('assign', w, '--pool', 'p', '--annotators', 'alice,bob', '--per-query', '1', '--seed', '4')).toMatch(/1 per query \(seed 4\)/);
    await ok('assign', w, '--pool', 'p', '--annotators', 'alice,bob');

    // Agreement JSON: the documented shape; undefined values are null with a reason beside them.
    const ag = JSON.parse(await ok('agreement', w, '--pool', 'p', '--bootstrap', '200', '--seed', '5', '--json'));
    expect(ag).toMatchObject({ pool: 'p', items: 8, annotators: ['alice', 'bob'] });
    expect(ag.percentAgreement).toBeCloseTo(6 / 8, 12);
    for (const k of ['fleissKappa', 'gwetAC1']) expect(typeof ag[k]).toBe('number');
    expect(Object.keys(ag.krippendorffAlpha)).toEqual(expect.arrayContaining(['nominal', 'ordinal', 'interval']));
    expect(ag.pairs).toHaveLength(1);
    expect(ag.pairs[0]).toMatchObject({ a: 'alice', b: 'bob', items: 8 });
    // kappa: po = 6/8, pe = (4·4 + 4·4)/64 = 0.5 → 0.5
    expect(ag.pairs[0].cohenKappa).toBeCloseTo(0.5, 12);
    expect(ag.pairs[0].ci95).toHaveLength(2);
    // Positive / negative specific agreement, as the Agreement screen shows them (the CLI left them out):
    // both similar on a, e, g; both not on c, f, h; one each on b and d → PSA = NSA = 6/8.
    expect(ag.pairs[0].psa).toBeCloseTo(0.75, 12);
    expect(ag.pairs[0].nsa).toBeCloseTo(0.75, 12);
    expect(ag.fleissKappaNote).toBe('8 items with 2 labels each');
    // One annotator: the report is printed, and the command fails (exit 1: nothing to measure; agreement-nothing.test).
    const oneRun = await run('agreement', w, '--pool', 'p', '--annotators', 'alice', '--json');
    expect(oneRun.code).toBe(1);
    const one = JSON.parse(oneRun.out);
    expect(one.fleissKappa).toBeNull();
    expect(one.fleissKappaReason).toMatch(/two/);
    // The text says why a value is n/a (it printed a table of bare n/a), and shows PSA/NSA.
    const oneText = (await run('agreement', w, '--pool', 'p', '--annotators', 'alice', '--bootstrap', '10')).out;
    expect(oneText).toMatch(/^pool p \(binary\): 1 annotator \(alice\), 8 pairs in 3 queries$/m);
    expect(oneText).toContain("  percent agreement, Fleiss' kappa, Gwet's AC1: no item has labels from two annotators\n");
    const twoText = await ok('agreement', w, '--pool', 'p', '--bootstrap', '10');
    expect(twoText).toMatch(/quadratic +PSA +NSA\n/);
    expect(twoText).toMatch(/ 0\.750 +0\.750\n/);
    expect(twoText).toContain("  Fleiss' kappa: 8 items with 2 labels each\n");
    expect(await ok('agreement', w, '--pool', 'p', '--bootstrap', '50')).toMatch(/Cohen|kappa/);
    const sub = JSON.parse(await ok('agreement', w, '--pool', 'p', '--queries', 'q1,q3', '--bootstrap', '50', '--json'));
    expect(sub).toMatchObject({ items: 5, queries: 2 });
    expect(sub.percentAgreement).toBeCloseTo(4 / 5, 12);
    expect((await run('agreement', w, '--pool', 'p', '--queries', 'q9')).err).toMatch(/not queries of pool "p": q9/);

    // The queue, a judge settles via `label`, the queue shrinks.
    const q = JSON.parse(await ok('adjudicate', w, '--pool', 'p', '--judge', 'judy', '--json'));
    expect(q).toMatchObject({ total: 2, remaining: 2 });
    expect(q.items.map((i: { queryId: string; candidateId: string }) => `${i.queryId}/${i.candidateId}`).sort()).toEqual(['q1/b', 'q2/d']);
    const lab = JSON.parse(await ok('label', w, '--pool', 'p', '--annotator', 'judy', '--query', 'q1', '--candidate', 'b', '--value', 'yes', '--json'));
    expect(lab).toMatchObject({ saved: true, record: { value: '1', annotator: 'judy' } });
    expect((await run('label', w, '--pool', 'p', '--annotator', 'judy', '--query', 'q1', '--candidate', 'b', '--value', 'maybe')).err).toMatch(/not a label of the binary scheme/);
    expect(JSON.parse(await ok('adjudicate', w, '--pool', 'p', '--judge', 'judy', '--json'))).toMatchObject({ remaining: 1 });
    expect(await ok('adjudicate', w, '--pool', 'p')).toMatch(/2 disagreements, 1 settled, 1 to settle/);

    // The aggregate feeds eval by default (no gold labels); --annotator still picks one person.
    let agg = JSON.parse(await ok('aggregate', w, '--pool', 'p', '--json'));
    expect(agg).toMatchObject({ rule: 'adjudicated', resolved: 7, unresolved: 1 });
    const ev = JSON.parse(await ok('eval', w, '--pool', 'p', '--convention', 'zero', '--json'));
    expect(ev.annotator).toBe('@aggregate');
    expect(JSON.parse(await ok('eval', w, '--pool', 'p', '--annotator', 'bob', '--json')).annotator).toBe('bob');
    expect(JSON.parse(await ok('eval', w, '--pool', 'p', '--annotator', '@aggregate', '--convention', 'zero', '--json')).runs).toEqual(ev.runs);
    // Only fully labeled (here: fully resolved) queries count by default; --partial counts the third.
    expect(ev).toMatchObject({ labeledQueries: 2, totalQueries: 3, partiallyLabeledQueries: 1, partial: false });
    expect(ev.runs.alt.queries).toBe(2);
    expect(JSON.parse(await ok('eval', w, '--pool', 'p', '--convention', 'zero', '--partial', '--json')).runs.alt.queries).toBe(3);
    agg = JSON.parse(await ok('aggregate', w, '--pool', 'p', '--rule', 'unanimous', '--json'));
    expect(agg).toMatchObject({ rule: 'unanimous', resolved: 6 });
    // The text says what the datasheet says: unanimous ignores judges, so no pair is settled by one (judy's
    // ruling on q1/b is listed with the disagreements); it said "settled by a judge 1".
    const text = await ok('aggregate', w, '--pool', 'p');
    expect(text).toMatch(/\nsettled by a judge +0\n/);
    expect(text).toMatch(/\ndisagreements \(settled\) +2 \(1\)\n/);
    await ok('export', w, '--pool', 'p', '--format', 'qrels', path.join(dir, 'unanimous.qrels'));
    const sheet = readFileSync(path.join(dir, 'unanimous.qrels.datasheet.md'), 'utf8');
    expect(sheet).toMatch(/\| settled by a judge \| 0 \|/);
    expect(sheet).toMatch(/\| disagreements \(settled\) \| 2 \(1\) \|/);
    expect((await run('aggregate', w, '--pool', 'p', '--rule', 'plurality')).code).toBe(2);
    await ok('aggregate', w, '--pool', 'p', '--rule', 'adjudicated');

    // Export with datasheet.
    const out = path.join(dir, 'gold.csv');
    const ex = JSON.parse(await ok('export', w, '--pool', 'p', '--format', 'csv', out, '--no-text', '--json'));
    expect(ex).toMatchObject({ pool: 'p', format: 'csv', labels: '@aggregate' });
    expect(readFileSync(out, 'utf8').split('\n')[2]).toBe('q1,b,gold,1,1,1,adjudicated,alice=1;bob=0');
    expect(readFileSync(`${out}.datasheet.md`, 'utf8')).toMatch(/## Agreement\n\n2 annotators \(alice, bob\)/);
    // --pseudonymize: the same export with each person as A1, A2, … in the order the workspace knew them.
    const hidden = path.join(dir, 'gold-pseudonyms.csv');
    await ok('export', w, '--pool', 'p', '--format', 'csv', hidden, '--no-text', '--pseudonymize');
    expect(readFileSync(hidden, 'utf8').split('\n')[2]).toBe('q1,b,gold,1,1,1,adjudicated,A1=1;A2=0');
    expect(readFileSync(`${hidden}.datasheet.md`, 'utf8')).toMatch(/## Agreement\n\n2 annotators \(A1, A2\)/);
    expect(readFileSync(`${hidden}.datasheet.md`, 'utf8')).not.toMatch(/\b(alice|bob|judy)\b/);
    const run2 = path.join(dir, 'alt.run');
    await ok('export', w, '--pool', 'p', '--format', 'trec-run', run2);
    expect(readFileSync(run2, 'utf8').split('\n')[0]).toBe('q1 Q0 c 1 10 alt');
    expect((await run('export', w, '--pool', 'p', '--format', 'askubuntu', path.join(dir, 'x.txt'), '--run', 'nope')).err).toMatch(/no run "nope"/);
  });

  it('eval --compare on the AskUbuntu dev pool (JSON with p-values and Holm)', async () => {
    const w = path.join(dir, 'au.qpairs');
    await ok('init', w);
    await ok('import', w, '--format', 'askubuntu-pool', dataset('askubuntu/dev.txt'));
    // A second run: the BM25 scores reversed, as a trec-run file.
    const out = path.join(dir, 'dev.run');
    await ok('export', w, '--pool', 'dev', '--format', 'trec-run', out);
    const rev = readFileSync(out, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const f = l.split(' ');
        return `${f[0]} Q0 ${f[2]} ${21 - Number(f[3])} ${-Number(f[4])} reversed`;
      });
    writeFileSync(path.join(dir, 'rev.run'), rev.join('\n') + '\n');
    await ok('import', w, '--format', 'trec-run', '--pool', 'dev', path.join(dir, 'rev.run'));
    const j = JSON.parse(await ok('eval', w, '--pool', 'dev', '--compare', 'bm25-lucene,reversed', '--bootstrap', '300', '--permutations', '1000', '--seed', '3', '--json'));
    expect(j).toMatchObject({ pool: 'dev', metric: 'AP', annotator: 'gold', queries: 189 });
    expect((100 * j.runs[0].mean).toFixed(2)).toBe('52.03');
    const p = j.pairs[0];
    expect(p).toMatchObject({ a: 'bm25-lucene', b: 'reversed', n: 189, rejectT: true, rejectPermutation: true });
    for (const k of ['pT', 'pPermutation', 'pHolmT', 'pHolmPermutation']) {
      expect(p[k]).toBeGreaterThanOrEqual(0);
      expect(p[k]).toBeLessThanOrEqual(1);
    }
    expect(p.ci95[0]).toBeLessThanOrEqual(p.meanDiff);
    expect(p.ci95[1]).toBeGreaterThanOrEqual(p.meanDiff);
    // The text gives the same figures in percent points, as the metrics table and the app's Compare panel (it gave 0.5203 beside eval's 52.03).
    const text = await ok('eval', w, '--pool', 'dev', '--compare', 'bm25-lucene,reversed', '--bootstrap', '300', '--permutations', '1000', '--seed', '3');
    expect(text).toMatch(/in percent points \(71\.35 = 0\.7135; --json gives fractions\)/);
    expect(text).toMatch(/^bm25-lucene +52\.03$/m);
    const pairRow = text.split('\n').find((l) => l.startsWith('bm25-lucene  reversed'))!;
    expect(pairRow.split(/ {2,}/).slice(2, 4)).toEqual([(100 * p.meanDiff).toFixed(2), `[${(100 * p.ci95[0]).toFixed(2)}, ${(100 * p.ci95[1]).toFixed(2)}]`]);
    const rr = await ok('eval', w, '--pool', 'dev', '--compare', 'bm25-lucene,reversed', '--metric', 'P@1', '--bootstrap', '100', '--permutations', '100');
    expect(rr).toMatch(/P@1 per query over 189 queries/);
    expect(rr).toMatch(/Holm p \(perm\)/);
    // Two runs make one pair: its noun takes the number ('Holm over 1 pairs' before).
    expect(rr).toMatch(/randomization test 100 random sign flips; Holm over 1 pair\n/);
    // The old reproduction still holds with gold as the default.
    expect(JSON.parse(await ok('eval', w, '--pool', 'dev', '--json')).annotator).toBe('gold');
    // An imported pool has no annotators: the aggregate and evaluation against it say why they are empty
    // (they said "no pair is resolved yet", as if disagreements were waiting for a judge).
    // Both in one sentence (they said it in two wordings).
    const why = '@aggregate combines the labels of pool "dev"\'s annotators, and it has none: its labels are imported as gold, which evaluation and exports use by default';
    expect(await ok('aggregate', w, '--pool', 'dev')).toContain(`note: ${why}\n`);
    // Nothing to evaluate (exit 1): --json still prints the evaluation, its reason, and stderr says it in one line.
    const aggregate = await runEvalNothing('eval', w, '--pool', 'dev', '--annotator', '@aggregate', '--json');
    expect(JSON.parse(aggregate.out).reason).toBe(why);
    expect(aggregate.err).toMatch(new RegExp(`^qpairs eval: nothing to evaluate: ${why.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}; to evaluate it: label its pairs `));
    expect(existsSync(`${out}.datasheet.md`)).toBe(true);
  });
});
