/**
 * The early-stopping note of a model trained with neither a dev pool nor cross-validation
 * (src/main/training/train.ts stores it in the training record, in the CLI's words). The Models screen
 * names its form's fields instead of the CLI's flags: a browser user cannot "give --cv".
 */
export const NO_DEV_NOR_CV = 'no dev pool and no --cv';
const NO_DEV_NOR_CV_APP = 'no “Dev pool” and no “Cross-validation folds”';

/** The stored note as the app says it (the CLI's note as stored). */
export function earlyStoppingNoteForApp(note: string): string {
  return note.startsWith(NO_DEV_NOR_CV) ? NO_DEV_NOR_CV_APP + note.slice(NO_DEV_NOR_CV.length) : note;
}
