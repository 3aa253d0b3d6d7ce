/**
 * What the app offers to each caller role (owner > judge > annotator; see commandRoles in
 * src/shared/contract.ts): which screens, and which commands a screen may call. The engine
 * enforces the same table (src/main/engine/access.ts); the renderer uses it only so it never
 * offers, or calls, what the engine would refuse.
 *
 * The table comes from src/shared/roles.ts, which has no imports: the contract's values would
 * bundle zod, whose eval probe trips the CSP.
 */
import type { CommandName } from '../../shared/contract';
import { commandRoles, roleAllows, type CallerRole } from '../../shared/roles';

/** Whether a caller of this role may call the command at all (argument rules aside). */
export function mayCall(role: CallerRole, command: CommandName): boolean {
  return roleAllows(role, commandRoles[command]);
}

export type Tab = 'workspace' | 'pools' | 'annotate' | 'review' | 'agreement' | 'evaluate' | 'export' | 'models' | 'browse';

/** Every screen, in the order of the tab bar (Alt+1…9 follow it), with the lowest role that sees it. */
export const TABS: ReadonlyArray<{ id: Tab; label: string; role: CallerRole }> = [
  { id: 'workspace', label: 'Workspace', role: 'owner' },
  { id: 'pools', label: 'Pools', role: 'owner' },
  { id: 'annotate', label: 'Annotate', role: 'annotator' },
  { id: 'review', label: 'Review', role: 'judge' },
  { id: 'agreement', label: 'Agreement', role: 'judge' },
  { id: 'evaluate', label: 'Evaluate', role: 'annotator' },
  { id: 'export', label: 'Export', role: 'judge' },
  { id: 'models', label: 'Models', role: 'judge' },
  { id: 'browse', label: 'Browse', role: 'annotator' },
];

export function isTab(s: unknown): s is Tab {
  return typeof s === 'string' && TABS.some((t) => t.id === s);
}

/** The screens a role sees, in tab-bar order. */
export function allowedTabs(role: CallerRole): Tab[] {
  return TABS.filter((t) => roleAllows(role, t.role)).map((t) => t.id);
}

/** The tab to show: the wanted one when the role may see it, else the role's first screen. */
export function resolveTab(role: CallerRole, wanted: string | null | undefined): Tab {
  const allowed = allowedTabs(role);
  return wanted && (allowed as string[]).includes(wanted) ? (wanted as Tab) : allowed[0]!;
}

/** Alt+N: the N-th tab of the whole bar (1-based), when this role may see it; else null. */
export function tabForShortcut(role: CallerRole, n: number): Tab | null {
  const t = TABS[n - 1];
  return t && roleAllows(role, t.role) ? t.id : null;
}

export const ROLE_HELP: Record<CallerRole, string> = {
  owner: 'owner: imports, pools, assignments, roles and every screen',
  judge: 'judge: labels, settles disagreements (Review), reads agreement, evaluates, exports and trains models',
  annotator: 'annotator: labels the pools assigned to them',
};
