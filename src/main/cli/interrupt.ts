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
  /** Aborted by the first SIGINT. */
  readonly signal: AbortSignal;
  /** Stops catching SIGINT: Node's default (the process ends) applies again. */
  release(): void;
}

export function catchInterrupt(): Interrupt {
  const ac = new AbortController();
  const onSigint = (): void => ac.abort();
  process.on('SIGINT', onSigint);
  return { signal: ac.signal, release: () => void process.off('SIGINT', onSigint) };
}
