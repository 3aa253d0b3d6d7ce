/**
 * The CLI's standard output and error as the commands' Out. A reader that stops early (`qpairs
 * eval W --pool P | head -1`) closes the pipe, and the next write fails with EPIPE, which Node
 * reports as an 'error' event on the stream: unhandled, that was a crash with a stack trace and
 * exit 1. A stream closed by its reader is now dropped quietly: the command finishes as it would
 * have, printing nothing more there, as `corpus export W -` already did.
 */
export type Out = { log: (s: string) => void; err: (s: string) => void };

/** Writes lines to `stream` until its reader goes away; other write errors stay errors. */
function lineWriter(stream: NodeJS.WritableStream): (s: string) => void {
  let closed = false;
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
    closed = true;
  });
  return (s) => {
    if (!closed) stream.write(s + '\n');
  };
}

/** Out on this process's stdout and stderr (made once: each call would add 'error' listeners). */
export function stdioOut(): Out {
  stdio ??= { log: lineWriter(process.stdout), err: lineWriter(process.stderr) };
  return stdio;
}
let stdio: Out | undefined;
