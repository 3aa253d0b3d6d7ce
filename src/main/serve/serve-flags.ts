/**
 * `--port P` and `--max-trainings N` of `qpairs serve` and `npm run serve`, checked alike by both: each
 * had its own check, and they had drifted (`npm run serve -- --port 99999` built the app, then failed
 * with exit 1 and another message than `qpairs serve`'s usage error; `--max-trainings 1.5` was a usage
 * error in one and "must be a whole number" in the other).
 */

/** The flag's value as a whole number written in decimal; undefined when not given; a RangeError for anything else. */
function wholeNumber(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^-?\d+$/.test(v) || !Number.isSafeInteger(n)) throw new RangeError(`${flag} needs a whole number, got "${v}"`);
  return n;
}

/** The port to listen on (0: any free one); undefined when not given (the server's default); a RangeError saying why for a bad value. */
export function portFlag(v: string | undefined): number | undefined {
  const port = wholeNumber(v, '--port');
  if (port !== undefined && (port < 0 || port > 65535)) throw new RangeError(`--port is a port number from 0 to 65535, not ${port}`);
  return port;
}

/** How many trainings run at once; undefined when not given (the server's default, 1); a RangeError saying why for a bad value. */
export function maxTrainingsFlag(v: string | undefined): number | undefined {
  const n = wholeNumber(v, '--max-trainings');
  if (n !== undefined && n < 1) throw new RangeError(`--max-trainings must be at least 1 (trainings that run at once), not ${n}`);
  return n;
}
