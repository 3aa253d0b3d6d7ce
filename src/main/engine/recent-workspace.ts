/**
 * Which workspace the desktop app (and `npm run serve` without a path) opens: the one named on
 * the command line; else the last one opened, while it still exists; else the demo workspace.
 * The last one is remembered in `<configDir>/recent.json` (`~/.qpairs/` by default) — a small
 * settings file, written atomically, never inside a workspace — with the few opened before it (the
 * desktop app's recent workspaces).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const RECENT_FILE = 'recent.json';

/** How many workspaces the recent list keeps (the last one among them). */
export const RECENT_MAX = 6;

interface RecentFile {
  lastWorkspace?: unknown;
  recent?: unknown;
}

function readRecentFile(configDir: string): RecentFile | null {
  try {
    const parsed = JSON.parse(readFileSync(path.join(configDir, RECENT_FILE), 'utf8')) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as RecentFile) : null;
  } catch {
    return null;
  }
}

const isAbsolutePath = (p: unknown): p is string => typeof p === 'string' && path.isAbsolute(p);

/** The workspace path remembered in configDir, whether or not it is still there (null: none, or unreadable). */
function rememberedWorkspace(configDir: string): string | null {
  const p = readRecentFile(configDir)?.lastWorkspace;
  return isAbsolutePath(p) ? p : null;
}

/**
 * The workspaces remembered in configDir, newest first, whether or not they are still there (a
 * file written before the list was kept gives its last workspace alone).
 */
export function recentWorkspaces(configDir: string): string[] {
  const f = readRecentFile(configDir);
  const list = Array.isArray(f?.recent) ? f.recent.filter(isAbsolutePath) : [];
  const last = isAbsolutePath(f?.lastWorkspace) ? [f.lastWorkspace] : [];
  return [...new Set([...last, ...list])].slice(0, RECENT_MAX);
}

/** The last workspace remembered in configDir, or null (none, unreadable, or the file is gone). */
export function lastWorkspace(configDir: string): string | null {
  const p = rememberedWorkspace(configDir);
  return p !== null && existsSync(p) ? p : null;
}

/** Remembers `workspace` (made absolute) as the one to reopen next time, first in the recent list. Never throws: a read-only home only loses the memory. */
export function rememberWorkspace(configDir: string, workspace: string): void {
  try {
    mkdirSync(configDir, { recursive: true });
    const file = path.join(configDir, RECENT_FILE);
    const tmp = `${file}.${process.pid}.tmp`;
    const last = path.resolve(workspace);
    const recent = [last, ...recentWorkspaces(configDir).filter((p) => p !== last)].slice(0, RECENT_MAX);
    writeFileSync(tmp, JSON.stringify({ lastWorkspace: last, recent }, null, 2) + '\n');
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
    `To open a workspace where it is now, use Open workspace… (the workspace menu at the top), or start QPairs with its path (npm start -- PATH).`
  );
}

/**
 * What the app adds when it cannot open the workspace it reopened from last time (a newer QPairs' workspace,
 * one held by another process…): every start without a path would meet the same refusal, so it says how to open another.
 */
export function lastRefusedNote(workspace: string): string {
  return `QPairs tried ${workspace} because it is the workspace opened last time. To open another, start QPairs with its path (npm start -- PATH).`;
}
