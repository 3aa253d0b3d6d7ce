/**
 * Picks the fastest tfjs backend present: tfjs-node ('tensorflow') when it can be imported,
 * else wasm (SIMD; the .wasm files are read from node_modules, never fetched), else cpu.
 * Override with `initBackend({ prefer })` or the env var QPAIRS_TF_BACKEND=tensorflow|wasm|cpu;
 * the wasm directory with `wasmDir` or QPAIRS_TFJS_WASM_DIR.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { createRequire } from 'node:module';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { patchKernels } from './kernels';
import { registerGradients } from './gradients';

export type BackendName = 'tensorflow' | 'wasm' | 'cpu';
export const ALL_BACKENDS: readonly BackendName[] = ['tensorflow', 'wasm', 'cpu'];

export interface BackendOptions {
  /** Backends to try, in order (default tensorflow, wasm, cpu). */
  prefer?: readonly BackendName[];
  /** Directory holding tfjs-backend-wasm*.wasm (default: node_modules/@tensorflow/tfjs-backend-wasm/dist). */
  wasmDir?: string;
}

let current: Promise<BackendName> | null = null;
let wasmPathsSet = false;
let nodeTried: Promise<boolean> | null = null;

function defaultWasmDir(): string | null {
  const env = process.env.QPAIRS_TFJS_WASM_DIR;
  if (env) return env;
  try {
    const req = createRequire(import.meta.url);
    const main = req.resolve('@tensorflow/tfjs-backend-wasm');
    let dir = path.dirname(main);
    if (!existsSync(path.join(dir, 'tfjs-backend-wasm-simd.wasm'))) dir = path.join(dir, 'dist');
    return dir;
  } catch {
    return null;
  }
}

/** Dynamic import of tfjs-node (an optional dependency that usually cannot install here). */
function tryNode(): Promise<boolean> {
  if (!nodeTried) {
    nodeTried = (async () => {
      try {
        const name = '@tensorflow/tfjs-node';
        await import(/* @vite-ignore */ name);
        return tf.findBackendFactory('tensorflow') != null;
      } catch {
        return false;
      }
    })();
  }
  return nodeTried;
}

async function trySet(name: BackendName, wasmDir?: string): Promise<boolean> {
  try {
    if (name === 'tensorflow') {
      if (!(await tryNode())) return false;
    } else if (name === 'wasm') {
      if (!wasmPathsSet) {
        const dir = wasmDir ?? defaultWasmDir();
        if (!dir) return false;
        setWasmPaths(dir.endsWith(path.sep) ? dir : dir + path.sep);
        wasmPathsSet = true;
      }
    }
    const ok = await tf.setBackend(name);
    if (!ok) return false;
    await tf.ready();
    if (name === 'cpu') {
      // silence tfjs' "install tfjs-node" banner
      const be = tf.findBackend('cpu') as unknown as { firstUse?: boolean } | null;
      if (be) be.firstUse = false;
    }
    patchKernels(name);
    registerGradients();
    return true;
  } catch {
    return false;
  }
}

/** Initialises (once) and returns the backend in use. */
export function initBackend(opts: BackendOptions = {}): Promise<BackendName> {
  if (current) return current;
  current = (async () => {
    const env = process.env.QPAIRS_TF_BACKEND as BackendName | undefined;
    const order = opts.prefer ?? (env && ALL_BACKENDS.includes(env) ? [env] : ALL_BACKENDS);
    for (const name of order) {
      if (await trySet(name, opts.wasmDir)) return name;
    }
    if (await trySet('cpu')) return 'cpu';
    throw new Error('no tfjs backend could be initialised');
  })();
  current.catch(() => {
    current = null;
  });
  return current;
}

/** Switches backend (benchmarks/tests). Tensors created on the old backend must be disposed first. */
export async function useBackend(name: BackendName, opts: BackendOptions = {}): Promise<boolean> {
  const ok = await trySet(name, opts.wasmDir);
  if (ok) current = Promise.resolve(name);
  return ok;
}

/** Backends that can be initialised here, fastest first. */
export async function availableBackends(opts: BackendOptions = {}): Promise<BackendName[]> {
  const out: BackendName[] = [];
  if (await tryNode()) out.push('tensorflow');
  const dir = opts.wasmDir ?? defaultWasmDir();
  if (dir && existsSync(path.join(dir, 'tfjs-backend-wasm.wasm'))) out.push('wasm');
  out.push('cpu');
  return out;
}

/** Name of the active backend ('tensorflow' | 'wasm' | 'cpu'). */
export function backendName(): string {
  return tf.getBackend();
}

export { tf };
