/**
 * Checks a model configuration given by a person (`qpairs train --config JSON`) against the
 * model's settings before anything trains. The models themselves take any object and spread it
 * over their defaults, so a misspelt key ("epoch" for "epochs"), a value of the wrong type
 * ("minDf": "abc") or a JSON array would otherwise train with the defaults, or with a value the
 * model then misreads, and report success.
 *
 * Rules: the configuration is a JSON object; every key is one of the model's settings (its
 * `*_DEFAULTS`, plus the optional start-vector settings of the neural encoders); a value has its
 * default's type (a number is finite and, except `seed`, not negative; counts and sizes are whole
 * numbers from 1, dropout/noise shares below 1, an n-gram range not empty; a choice is one of its
 * choices; `runs` is null or a list of run names; `ppmiWords` and `fusedVectors` are checked the
 * same way, one level down).
 */
import { QPairsError } from '../errors';
import { DAE_DEFAULTS } from './dae';
import { DOSSANTOS_DEFAULTS } from './dossantos';
import { ENCODER_DEFAULTS } from './encoders';
import { FUSED_DEFAULTS } from './fused';
import { HNIL_DEFAULTS } from './hnil';
import { LTR_DEFAULTS } from './ltr';
import { MNET_FISHER_DEFAULTS } from './mnet-fisher';
import { SKIPGRAM_DEFAULTS } from './skipgram';
import { TFIDF_DEFAULTS } from './tfidf';
import type { ModelId } from './types';

/** Settings that are strings with a fixed set of values. */
const CHOICES: Record<string, readonly string[]> = {
  learner: ['ranksvm', 'lambdamart'],
  ppmiWeighting: ['uniform', 'harmonic'],
  pooling: ['mean', 'last'],
  impl: ['fused', 'plain'],
  startVectors: ['skipgram', 'fused'],
  stopWords: ['basic', 'extended'],
};

/**
 * Settings that count or size something: whole numbers of at least 1. 0 trains nothing useful or
 * never ends ("batchSize": 0 made an epoch loop forever; "hidden": 0 crashed the worker; "dim": 0 or
 * "epochs": 0 stored a model that scores every candidate alike, reported as trained).
 */
const COUNTS: ReadonlySet<string> = new Set([
  'epochs', 'batchSize', 'hidden', 'embDim', 'dim', 'filters', 'window', 'maxLen', 'maxBowLen', 'maxTitleLen', 'maxBodyLen',
  'minN', 'maxN', 'charMinN', 'charMaxN', 'vocabSize', 'maxVocab', 'ppmiDim', 'ppmiWindow', 'ppmiMaxVocab', 'lsaDim',
  'graphDim', 'metaDim', 'graphWalkLength', 'decoderVocab', 'gmmSamples', 'gmmMaxIter', 'maxLeaves', 'minLeaf',
]);

/** Settings that are a share of units dropped or masked: at least 0 and below 1. */
const SHARES: ReadonlySet<string> = new Set(['dropout', 'noise']);

/** Ranges given by two settings: the first may not exceed the second (an empty n-gram range scores everything 0). */
const RANGES: ReadonlyArray<readonly [string, string]> = [
  ['minN', 'maxN'],
  ['charMinN', 'charMaxN'],
];

/** The encoders' optional settings (no default value): where their word vectors start. */
const START_VECTORS = { startVectors: 'skipgram', fusedVectors: {} } as const;

/** A model's settings with their defaults: the keys `qpairs train --config` and the Models screen accept. */
export function modelSettings(kind: ModelId): Record<string, unknown> {
  switch (kind) {
    case 'tfidf':
      return TFIDF_DEFAULTS;
    case 'skipgram':
      return SKIPGRAM_DEFAULTS;
    case 'ltr':
      return LTR_DEFAULTS;
    case 'fused':
      return FUSED_DEFAULTS;
    case 'mnet-fisher':
      return MNET_FISHER_DEFAULTS;
    case 'dae':
      return DAE_DEFAULTS;
    case 'hnil':
      return { ...HNIL_DEFAULTS, ...START_VECTORS };
    case 'bow-cnn':
    case 'cnn':
      return { ...DOSSANTOS_DEFAULTS, ...START_VECTORS };
    case 'lstm':
    case 'gru':
    case 'rcnn':
      return { ...ENCODER_DEFAULTS, ...START_VECTORS };
  }
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const shown = (x: unknown): string => (Array.isArray(x) ? 'a list' : x === null ? 'null' : typeof x === 'object' ? 'an object' : JSON.stringify(x));

function checkObject(where: string, config: Record<string, unknown>, settings: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(config)) {
    if (!Object.hasOwn(settings, key)) {
      throw new QPairsError(`${where} has no setting "${key}" (its settings: ${Object.keys(settings).join(', ')})`, { reason: 'bad config' });
    }
    const def = settings[key];
    const bad = (what: string): QPairsError =>
      new QPairsError(`${where}: "${key}" must be ${what}, not ${shown(value)}${def !== null && typeof def !== 'object' ? ` (default ${JSON.stringify(def)})` : ''}`, { reason: 'bad config' });
    if (key === 'runs') {
      if (value !== null && !(Array.isArray(value) && value.every((r) => typeof r === 'string'))) throw bad('null (every run) or a list of run names');
    } else if (key === 'fusedVectors') {
      if (!isObject(value)) throw bad('an object of fused settings');
      checkObject(`${where}: "fusedVectors"`, value, FUSED_DEFAULTS);
    } else if (isObject(def)) {
      if (!isObject(value)) throw bad(`an object like ${JSON.stringify(def)}`);
      checkObject(`${where}: "${key}"`, value, def);
    } else if (CHOICES[key]) {
      if (typeof value !== 'string' || !CHOICES[key]!.includes(value)) throw bad(`one of ${CHOICES[key]!.map((c) => `"${c}"`).join(', ')}`);
    } else if (typeof def === 'number') {
      if (typeof value !== 'number' || !Number.isFinite(value)) throw bad('a number');
      if (value < 0 && key !== 'seed') throw bad('0 or more');
      if (COUNTS.has(key) && (!Number.isInteger(value) || value < 1)) throw bad('a whole number, 1 or more');
      if (SHARES.has(key) && value >= 1) throw bad('at least 0 and below 1');
    } else if (typeof def === 'boolean') {
      if (typeof value !== 'boolean') throw bad('true or false');
    } else if (typeof value !== typeof def) {
      throw bad(`a ${typeof def}`);
    }
  }
  for (const [lo, hi] of RANGES) {
    if (!(lo in config || hi in config) || !Object.hasOwn(settings, lo) || !Object.hasOwn(settings, hi)) continue;
    const a = (config[lo] ?? settings[lo]) as number;
    const b = (config[hi] ?? settings[hi]) as number;
    if (a > b) throw new QPairsError(`${where}: "${lo}" (${a}) must not exceed "${hi}" (${b})`, { reason: 'bad config' });
  }
}

/** An example configuration of the kind's own: its first numeric setting at its default. */
function example(kind: ModelId): string {
  const entry = Object.entries(modelSettings(kind)).find(([k, v]) => typeof v === 'number' && k !== 'seed');
  return entry ? `{"${entry[0]}": ${JSON.stringify(entry[1])}}` : '{}';
}

/**
 * The configuration, checked: throws QPairsError naming the bad key or value (and the model's
 * settings) for anything but a JSON object of the model's own settings with values of their types.
 */
export function checkModelConfig(kind: ModelId, config: unknown): Record<string, unknown> {
  if (!isObject(config)) throw new QPairsError(`the ${kind} configuration must be a JSON object of its settings, e.g. ${example(kind)}, not ${shown(config)}`, { reason: 'bad config' });
  checkObject(`model ${kind}`, config, modelSettings(kind));
  return config;
}
