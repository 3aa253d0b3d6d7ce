/**
 * The machine user's account name, offered as the local owner's annotator name on a first run
 * (app.info's `suggestedAnnotator`). Trimmed to a valid annotator name; null when the system has
 * none to give (no passwd entry, e.g. some containers) or it would be a reserved name ("@…").
 */
import os from 'node:os';
import { isReservedAnnotatorName } from '../../shared/gold';

export function localUserName(): string | null {
  let name: string;
  try {
    name = os.userInfo().username;
  } catch {
    return null;
  }
  const clean = name.trim().slice(0, 200);
  return clean && !isReservedAnnotatorName(clean) ? clean : null;
}
