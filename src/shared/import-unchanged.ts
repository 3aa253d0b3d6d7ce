/**
 * What an import that wrote nothing (its report's `unchanged: true`: each file as the workspace
 * holds it already) says in words: the CLI's text output and the app's import report both use it.
 * No imports: the renderer uses it.
 */
export const NOTHING_CHANGED = 'nothing changed';

/** "the workspace already holds this file as it is" (several files: "these files as they are"). */
export function alreadyHeld(files: number): string {
  return `the workspace already holds ${files === 1 ? 'this file as it is' : 'these files as they are'}`;
}
