/**
 * Tiny synthetic labeled data for the model tests: questions about a few topics; questions on
 * the same topic are similar. Deterministic.
 */
import { Rng } from './rng';
import type { DevSet, QText, RunScores, TrainingData } from './types';

const TOPICS = [
  'wifi router wireless connection signal network drops adapter',
  'printer driver install cups print queue paper scanner',
  'sound audio speaker headphones volume pulseaudio mute alsa',
  'disk partition format ext4 gparted mount drive filesystem',
  'kernel boot grub bootloader initramfs panic startup firmware',
  'password login account user sudo root permission keyring',
].map((t) => t.split(' '));
const FILLER = 'the a my how to is it on with when after for not can i do does what why this'.split(' ');

export function syntheticData(seed = 1, perTopic = 5): { data: TrainingData; dev: DevSet; topics: string[][] } {
  const rng = new Rng(seed);
  const questions = new Map<string, QText>();
  const byTopic: string[][] = [];
  TOPICS.forEach((words, t) => {
    byTopic.push([]);
    for (let k = 0; k < perTopic; k++) {
      const pick = (n: number) => Array.from({ length: n }, () => words[rng.int(words.length)]);
      const title = [...pick(3), FILLER[rng.int(FILLER.length)]].join(' ');
      const body = Array.from({ length: 14 }, () => (rng.next() < 0.5 ? words[rng.int(words.length)] : FILLER[rng.int(FILLER.length)])).join(' ');
      const id = `t${t}q${k}`;
      questions.set(id, { id, title, body });
      byTopic[t].push(id);
    }
  });
  const positives: Array<[string, string]> = [];
  const negatives: Array<[string, string]> = [];
  byTopic.forEach((ids, t) => {
    for (let k = 1; k < ids.length; k++) positives.push([ids[0], ids[k]]);
    const other = byTopic[(t + 1) % byTopic.length];
    negatives.push([ids[0], other[0]], [ids[0], other[1]]);
  });
  const dev: DevSet = {
    queries: byTopic.map((ids, t) => {
      const cands = [...byTopic[(t + 1) % byTopic.length].slice(0, 3), ids[1], ...byTopic[(t + 2) % byTopic.length].slice(0, 3)];
      return { query: questions.get(ids[0])!, candidates: cands.map((c) => questions.get(c)!), relevant: new Set([ids[1]]) };
    }),
  };
  return { data: { questions, positives, negatives, randomPool: [...questions.keys()] }, dev, topics: TOPICS };
}

/** A noisy run that prefers same-topic candidates (topic = id prefix "t<k>"). */
function topicRun(seed: number): (q: string, c: string) => number {
  const rng = new Rng(seed);
  const cache = new Map<string, number>();
  return (q, c) => {
    const k = `${q}|${c}`;
    if (!cache.has(k)) cache.set(k, (q.split('q')[0] === c.split('q')[0] ? 1 : 0) + rng.next() * 0.8);
    return cache.get(k)!;
  };
}

/**
 * modelSuite's `prepare` for the rankers that read runs (ltr, fused): puts a noisy same-topic run
 * `topic` (seed 1) over every pair of the fixture's questions into its data, and gives it to scoring.
 */
export function withTopicRun(fx: ReturnType<typeof syntheticData>): { ctx: (q: QText) => { runs: RunScores } } {
  const run = topicRun(1);
  const byQuery = new Map<string, Map<string, number>>();
  const ids = [...fx.data.questions.keys()];
  for (const q of ids) byQuery.set(q, new Map(ids.map((c) => [c, run(q, c)])));
  fx.data.runs = { topic: byQuery };
  return { ctx: (q: QText) => ({ runs: { topic: byQuery.get(q.id)! } as RunScores }) };
}

/**
 * Training data whose texts say nothing (30 queries "q<k>", 6 candidates "q<k>c<c>" each, the first 2
 * relevant) with two runs: `good` (relevance + noise in [0, 1)) and `noise` (noise only), seed 3.
 */
export function goodAndNoiseRuns(): { data: TrainingData; good: Map<string, Map<string, number>>; noise: Map<string, Map<string, number>> } {
  const rng = new Rng(3);
  const questions = new Map<string, QText>();
  const positives: Array<[string, string]> = [];
  const negatives: Array<[string, string]> = [];
  const good = new Map<string, Map<string, number>>();
  const noise = new Map<string, Map<string, number>>();
  for (let q = 0; q < 30; q++) {
    const qid = `q${q}`;
    questions.set(qid, { id: qid, title: `query ${q}`, body: '' });
    const g = new Map<string, number>();
    const n = new Map<string, number>();
    for (let c = 0; c < 6; c++) {
      const cid = `q${q}c${c}`;
      questions.set(cid, { id: cid, title: `cand ${c}`, body: '' });
      const rel = c < 2;
      (rel ? positives : negatives).push([qid, cid]);
      g.set(cid, (rel ? 1 : 0) + rng.next());
      n.set(cid, rng.next());
    }
    good.set(qid, g);
    noise.set(qid, n);
  }
  return { data: { questions, positives, negatives, randomPool: [], runs: { good, noise } }, good, noise };
}
