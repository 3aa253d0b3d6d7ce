/**
 * How a failure of zlib's gunzip reads (a plain gzip file's, or a .tar.gz archive's): "corrupt or truncated
 * gzip data (unexpected end of file)". Null for any other error (a read error is said otherwise).
 */
export function gzipDataError(e: unknown): string | null {
  const err = e as NodeJS.ErrnoException;
  if (err.code?.startsWith('Z_') || /unexpected end|header|invalid/i.test(err.message)) return `corrupt or truncated gzip data (${err.message})`;
  return null;
}
