/** The user-facing error of an importer: the file, the line and the reason. */
import { QPairsError } from '../errors';

/** A user-facing error naming the file, the line and the reason. */
export function fileError(file: string, line: number | null, reason: string): QPairsError {
  return new QPairsError(line == null ? `${file}: ${reason}` : `${file}, line ${line}: ${reason}`, {
    file,
    ...(line == null ? {} : { line }),
    reason,
  });
}
