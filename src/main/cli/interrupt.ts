/**
 * Ctrl-C for the CLI's cancellable commands. main() catches SIGINT before such a command opens
 * anything and keeps catching it until the command has cleaned up (workspace closed, lock
 * released), so a Ctrl-C at any moment of the command ends it through CancelledError ("cancelled;
 * nothing was changed", exit 130) instead of Node's default of ending the process on the spot,
 * which left the lock file and the WAL beside the workspace. Repeats are absorbed: a terminal's
 * Ctrl-C can arrive twice (`timeout -s INT` signals the process and its group; bin/qpairs.mjs
 * under an older Node passes the signal on to a child that got it from the terminal too).
 */
export interface Interrupt {
  /** Aborted by the first SIGINT, SIGTERM or SIGHUP. */
  readonly signal: AbortSignal;
  /** Stops catching SIGINT: Node's default (the process ends) applies again. */
  release(): void;
}

/**
 * The signals that cancel: Ctrl-C (SIGINT), and `kill PID`, `timeout`, a CI job's cancel or a closed
 * terminal (SIGTERM, SIGHUP), which ended the process on the spot: the lock file and the import's
 * committed chunks stayed until the next command took the lock over and undid them.
 */
const CANCEL_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export function catchInterrupt(): Interrupt {
  const ac = new AbortController();
  const onSignal = (): void => ac.abort();
  for (const s of CANCEL_SIGNALS) process.on(s, onSignal);
  return {
    signal: ac.signal,
    release: () => {
      for (const s of CANCEL_SIGNALS) process.off(s, onSignal);
    },
  };
}
