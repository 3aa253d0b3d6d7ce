/**
 * Tiny synthetic labeled data for the model tests: questions about a few topics; questions on
 * the same topic are similar. Deterministic.
 */
import { Rng } from './rng';
import type { DevSet, QText, TrainingData } from './types';

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
