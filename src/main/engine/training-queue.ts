/**
 * The training queue (issue 23): at most `max` model trainings run at once (default 1; serve mode's
 * `--max-trainings N`). A training started while others run waits, shown as queued in its job's
 * progress ("queued: 2 trainings ahead…"); a cancelled queued job leaves the queue without running.
 * Trainings are CPU- and memory-heavy (an LSTM job: one thread, ~90 MB), so they queue instead
 * of piling up. The queue itself is slot-queue.ts's, as the compute workers' is.
 */
import { SlotQueue, type SlotLoad } from './slot-queue';

export const DEFAULT_MAX_TRAININGS = 1;

export class TrainingQueue {
  private readonly slots: SlotQueue;

  constructor(readonly max = DEFAULT_MAX_TRAININGS) {
    if (!Number.isInteger(max) || max < 1) throw new Error(`max concurrent trainings must be a positive whole number (got ${max})`);
    this.slots = new SlotQueue({ max: () => this.max });
  }

  /** Trainings running and waiting now. */
  get load(): SlotLoad {
    return this.slots.load;
  }

  /**
   * Waits for a training slot and returns its release. `onQueued(ahead)` is called at once when the
   * training has to wait (the trainings running and those queued before it), and again as it moves
   * up. Throws CancelledError when `signal` aborts first.
   */
  acquire(signal: AbortSignal | undefined, onQueued: (ahead: number) => void): Promise<() => void> {
    return this.slots.acquire(signal, onQueued);
  }
}
