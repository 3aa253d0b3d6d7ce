/**
 * Keeps server-side paths from callers who are not on the server's machine (every token holder of
 * serve mode): a message naming the workspace's file, its folder or files beside it (a read-only
 * workspace's reason, a lock's) reaches them with the workspace by its base name (app.info's
 * workspaceName), files beside it by theirs, and the folder as "the workspace's folder". The CLI,
 * the desktop app and serve mode's loopback owner get the message as written, full paths and all.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';

/** The ways a message may spell the workspace's file: as opened, absolute, and with links resolved. */
function spellings(file: string): string[] {
  const forms = new Set([file, path.resolve(file)]);
  try {
    forms.add(realpathSync(file));
  } catch {
    // gone or unreadable: the other spellings
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** `message` with the workspace file's path (and its folder's) as a remote caller may read them. */
export function withoutServerPaths(message: string, workspaceFile: string): string {
  if (workspaceFile === '' || workspaceFile === ':memory:') return message;
  let out = message;
  const files = spellings(workspaceFile);
  for (const f of files) out = out.split(f).join(path.basename(f));
  for (const dir of new Set(files.map((f) => path.dirname(f)))) {
    if (dir === path.parse(dir).root || dir === '.') continue; // "/" or "." would match every path's separator
    out = out.split(`its folder ${dir} `).join('its folder ');
    out = out.split(dir + path.sep).join('');
    out = out.split(dir).join("the workspace's folder");
  }
  return out;
}

/**
 * An internal error's text as a remote caller gets it (serve mode; the server's log keeps it whole):
 * every absolute path by its base name — an internal error is not worded for users and may name
 * any server file (a Node error's "open '/srv/…/x'"), not only the workspace's.
 */
export function withoutAbsolutePaths(message: string): string {
  return message
    // Quoted (a Node error's 'open …'): the whole quoted path, spaces and all.
    .replace(/(['"`])(?:\/|[A-Za-z]:\\)[^'"`\n]*[\/\\]([^'"`\n\/\\]*)\1/g, '$1$2$1')
    .replace(/(?<![\w.:/\\-])\/(?:[^\s'"`,()/]+\/)+([^\s'"`,()/]*)/g, '$1')
    .replace(/(?<![\w])[A-Za-z]:\\(?:[^\s'"`,()\\]+\\)+([^\s'"`,()\\]*)/g, '$1');
}
