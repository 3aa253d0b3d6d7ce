/** What a new pool takes unless told, and the most it takes, for pool.create, `qpairs pool create` and the Pools form alike. */

/** Candidates per query (the BM25 top-k) unless --depth or the form says otherwise, and the most pool.create and the form take. */
export const DEFAULT_POOL_DEPTH = 20;
export const MAX_POOL_DEPTH = 1000;
/** The most queries a pool's random sample draws (pool.create, the form). */
export const MAX_POOL_SAMPLE = 100_000;
