/** Messages between compute.ts and compute-worker.ts (one task per worker). */
import type { ComputeTask } from './compute-task';
import type { AddonLoaded } from '../workspace/addon-workers';
import type { ExportStage } from '../export/progress';

export type ToComputeWorker = { type: 'run'; path: string; task: ComputeTask };

export type FromComputeWorker =
  | AddonLoaded
  | { type: 'progress'; stage: ExportStage; done: number; total: number }
  | { type: 'done'; result: unknown }
  | { type: 'error'; name: string; message: string; details?: Record<string, unknown> };
