/** IR metrics (pure): ranking a run over candidate pools, per-query measures, run evaluation. */
export * from './measures';
export * from './ranking';
export * from './evaluate';
export * from './incremental';
