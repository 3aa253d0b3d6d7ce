/** localStorage/sessionStorage helpers that never throw (private windows, quota, tests). */
export interface KV {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const memory = (): KV => {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
};

function pick(kind: 'localStorage' | 'sessionStorage'): KV {
  try {
    const s = (globalThis as unknown as Record<string, KV | undefined>)[kind];
    if (s) {
      const probe = '__qpairs_probe__';
      s.setItem(probe, '1');
      s.removeItem(probe);
      return s;
    }
  } catch {
    /* fall through */
  }
  return memory();
}

export const local: KV = pick('localStorage');
export const session: KV = pick('sessionStorage');

export function readJson<T>(kv: KV, key: string, fallback: T): T {
  try {
    const v = kv.getItem(key);
    return v == null ? fallback : (JSON.parse(v) as T);
  } catch {
    return fallback;
  }
}

export function writeJson(kv: KV, key: string, value: unknown): void {
  try {
    kv.setItem(key, JSON.stringify(value));
  } catch {
    /* quota: nothing better to do */
  }
}
