/**
 * The progress message of the job by which the app and serve mode finish, in the background, an undo of the last
 * import that a crash or kill stopped partway (engine/undo-import.ts): the Workspace screen tells it from an undo
 * asked for there. No imports: the renderer uses it.
 */
export const FINISHING_UNDO = 'finishing an interrupted undo';
