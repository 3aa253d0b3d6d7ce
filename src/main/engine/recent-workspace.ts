/**
 * Which workspace the desktop app (and `npm run serve` without a path) opens: the one named on
 * the command line; else the last one opened, while it still exists; else the demo workspace.
 * The last one is remembered in `<configDir>/recent.json` (`~/.qpairs/` by default) — a small
 * settings file, written atomically, never inside a workspace.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const RECENT_FILE = 'recent.json';

interface RecentFile {
  lastWorkspace?: unknown;
}

/** The workspace path remembered in configDir, whether or not it is still there (null: none, or unreadable). */
function rememberedWorkspace(configDir: string): string | null {
  let parsed: RecentFile;
  try {
    parsed = JSON.parse(readFileSync(path.join(configDir, RECENT_FILE), 'utf8')) as RecentFile;
  } catch {
    return null;
  }
  const p = parsed?.lastWorkspace;
  return typeof p === 'string' && path.isAbsolute(p) ? p : null;
}

/** The last workspace remembered in configDir, or null (none, unreadable, or the file is gone). */
export function lastWorkspace(configDir: string): string | null {
  const p = rememberedWorkspace(configDir);
  return p !== null && existsSync(p) ? p : null;
}

/** Remembers `workspace` (made absolute) as the one to reopen next time. Never throws: a read-only home only loses the memory. */
export function rememberWorkspace(configDir: string, workspace: string): void {
  try {
    mkdirSync(configDir, { recursive: true });
    const file = path.join(configDir, RECENT_FILE);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ lastWorkspace: path.resolve(workspace) }, null, 2) + '\n');
    renameSync(tmp, file);
  } catch {
    // Remembering is a convenience; opening the workspace must not fail for it.
  }
}

export interface StartupChoice {
  workspace: string;
  /** Why this one: named on the command line, reopened from last time, or the demo. */
  reason: 'given' | 'last' | 'demo';
  /** The demo only: the workspace remembered from last time that is no longer there (moved, renamed or deleted). */
  lastMissing?: string;
}

/** The workspace to open at start-up (see the file comment). `given` is resolved against the working directory. */
export function startupWorkspace(given: string | null, configDir: string, demo: string): StartupChoice {
  if (given) return { workspace: path.resolve(given), reason: 'given' };
  const last = lastWorkspace(configDir);
  if (last) return { workspace: last, reason: 'last' };
  const missing = rememberedWorkspace(configDir);
  return missing === null || missing === path.resolve(demo) ? { workspace: demo, reason: 'demo' } : { workspace: demo, reason: 'demo', lastMissing: missing };
}

/** What the app tells its user when the workspace it would have reopened is gone (StartupChoice.lastMissing). */
export function lastMissingNote(missing: string, demo: string): string {
  return (
    `The workspace opened last time, ${missing}, is no longer there (moved, renamed or deleted): the demo workspace (${demo}) is open instead. ` +
    `To open a workspace where it is now, start QPairs with its path (npm start -- PATH).`
  );
}

/**
 * What the app adds when it cannot open the workspace it reopened from last time (a newer QPairs' workspace,
 * one held by another process…): every start without a path would meet the same refusal, so it says how to open another.
 */
export function lastRefusedNote(workspace: string): string {
  return `QPairs tried ${workspace} because it is the workspace opened last time. To open another, start QPairs with its path (npm start -- PATH).`;
}
