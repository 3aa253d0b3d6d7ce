/**
 * A trained model's bytes as the workspace stores them (store.ts): a little-endian u32 header
 * length, the JSON header, zero padding to a 4-byte boundary, then every tensor's float32 data in
 * header order. Loading gives back bit-identical weights, so a reloaded model scores identically.
 * Imported by the train worker, which encodes the model it trained (encodeForStore).
 */
import type { SavedModel, SavedTensor } from '../models/types';
import type { EncodedModel } from '../models/worker-protocol';
import { QPairsError } from '../errors';

export interface Header {
  format: 1;
  kind: string;
  config: Record<string, unknown>;
  vocab?: string[];
  meta?: Record<string, unknown>;
  tensors: Array<{ name: string; shape: number[]; length: number }>;
}

export function encodeSavedModel(saved: SavedModel): Buffer {
  const names = Object.keys(saved.weights);
  const header: Header = {
    format: 1,
    kind: saved.kind,
    config: saved.config,
    vocab: saved.vocab,
    meta: saved.meta,
    tensors: names.map((name) => ({ name, shape: saved.weights[name]!.shape, length: saved.weights[name]!.data.length })),
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const headStart = 4;
  const dataStart = Math.ceil((headStart + json.length) / 4) * 4;
  const total = dataStart + names.reduce((s, n) => s + saved.weights[n]!.data.length * 4, 0);
  const buf = Buffer.alloc(total);
  buf.writeUInt32LE(json.length, 0);
  json.copy(buf, headStart);
  let off = dataStart;
  for (const n of names) {
    const d = saved.weights[n]!.data;
    Buffer.from(d.buffer, d.byteOffset, d.byteLength).copy(buf, off);
    off += d.byteLength;
  }
  return buf;
}

export function decodeSavedModel(buf: Buffer): SavedModel {
  const len = buf.readUInt32LE(0);
  const header = JSON.parse(buf.subarray(4, 4 + len).toString('utf8')) as Header;
  if (header.format !== 1) throw new QPairsError(`unknown saved-model format ${String(header.format)}`);
  let off = Math.ceil((4 + len) / 4) * 4;
  const weights: Record<string, SavedTensor> = {};
  for (const t of header.tensors) {
    // Copy into a fresh aligned Float32Array (the BLOB buffer may be shared or unaligned).
    const data = new Float32Array(t.length);
    new Uint8Array(data.buffer).set(buf.subarray(off, off + t.length * 4));
    weights[t.name] = { shape: t.shape, data };
    off += t.length * 4;
  }
  const saved: SavedModel = { format: 1, kind: header.kind as SavedModel['kind'], config: header.config, weights };
  if (header.vocab) saved.vocab = header.vocab;
  if (header.meta) saved.meta = header.meta;
  return saved;
}

/**
 * A model encoded for storing (EncodedModel): `meta` (the out-of-fold scores of --cv) added to its
 * saved meta in the stored bytes; the EncodedModel's meta is the model's own. The train worker
 * calls this, so the engine's thread only writes the bytes (storeEncodedModel).
 */
export function encodeForStore(saved: SavedModel, meta?: Record<string, unknown>): EncodedModel {
  const bytes = encodeSavedModel(meta ? { ...saved, meta: { ...(saved.meta ?? {}), ...meta } } : saved);
  return { kind: saved.kind, ...(saved.meta ? { meta: saved.meta } : {}), bytes };
}
