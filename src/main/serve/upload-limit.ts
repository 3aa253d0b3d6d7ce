/**
 * `--max-upload-mb N` of `qpairs serve` and `npm run serve`: the largest file an owner may upload
 * for an import, in MiB (default DEFAULT_MAX_UPLOAD, 2 GiB). Checked before the server starts:
 * a value that is not a positive number used to reach the server as NaN, which let no upload through.
 */
/** Bytes for the flag's value (fractions allowed: 0.5 = 512 KiB); undefined when not given; a RangeError saying why for a bad value. */
export function uploadLimitBytes(mb: string | undefined): number | undefined {
  if (mb === undefined) return undefined;
  const n = Number(mb);
  if (mb.trim() === '' || !Number.isFinite(n) || n <= 0) throw new RangeError(`--max-upload-mb is a size in MiB greater than 0 (e.g. 2048), not "${mb}"`);
  const bytes = Math.floor(n * 1024 * 1024);
  if (bytes < 1) throw new RangeError(`--max-upload-mb ${mb} is less than one byte`);
  return bytes;
}
