/**
 * The owner's "Team access" panel (issue 23): invite a person (a fresh token and link, shown once),
 * copy the link, revoke, change a role, and see when each person was last seen. The workspace
 * keeps only salted hashes of tokens, so a link that was not copied cannot be shown again: invite
 * the person again (their earlier token then stops working).
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { AnnotatorInvitation, TeamMemberView } from '../../shared/contract';
import { useApp, useEvent, useReconnect } from '../lib/context';
import { errorMessage } from '../lib/format';
import { PERSON_ROLES } from '../../shared/roles';
import { inviteLink } from '../../shared/invite-link';
import { RoleSelect } from '../components/RoleSelect';
import { ChoiceSelect } from '../components/ChoiceSelect';

type PersonRole = (typeof PERSON_ROLES)[number];

/** "3 min ago" style, or the date for older times; '—' for never. */
function ago(iso: string | null): string {
  if (!iso) return '—';
  const s = Math.round((Date.now() - Date.parse(iso)) / 1000);
  if (!Number.isFinite(s)) return iso;
  if (s < 90) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return iso.slice(0, 10);
}

/**
 * Why the invite form must not invite `who` as `role`, or null: someone already on the team with a
 * live link (a new one would replace it: their row's New link says so), or with another role (the
 * form would change it). People without a link in the role asked (added by an assignment) are invited.
 */
function inviteProblem(team: readonly TeamMemberView[], who: string, role: PersonRole): string | null {
  const known = team.find((m) => m.name === who);
  if (!known) return null;
  if (known.invited) return `"${who}" already has a link (${known.role}): use New link in their row to replace it, or Revoke.`;
  if (known.role !== role) return `"${who}" is already on the team as ${known.role}: choose that role to invite them, or change their role in their row first.`;
  return null;
}

export function AccessPanel(): ReactNode {
  const { client, info } = useApp();
  const [team, setTeam] = useState<TeamMemberView[]>([]);
  const [error, setError] = useState<string | null>(null);
  // What a role change did to the person's labels and rulings in the pools (annotator.setRole's notes).
  const [roleNote, setRoleNote] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [role, setRole] = useState<PersonRole>('annotator');
  const [busy, setBusy] = useState(false);
  const [fresh, setFresh] = useState<(AnnotatorInvitation & { shownLink: string }) | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const linkRef = useRef<HTMLInputElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);

  const load = useCallback(() => {
    client
      .invoke('annotator.team', {})
      .then((t) => {
        setTeam(t);
        setError(null);
      })
      .catch((e: unknown) => setError(errorMessage(e)));
  }, [client]);
  useEffect(load, [load]);
  useEvent('workspace.changed', load);
  useReconnect(load);

  const invite = async (who: string, as: PersonRole): Promise<void> => {
    setBusy(true);
    setError(null);
    setCopied(null);
    try {
      const inv = await client.invoke('annotator.invite', { name: who, role: as });
      // The desktop app serves nothing itself: the link is completed with the server's address.
      const shownLink = inv.link ?? inviteLink('http://HOST:5180', inv.token, inv.role);
      setFresh({ ...inv, shownLink });
      setName('');
      load();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  // The link takes the focus (a screen reader reads it; Ctrl+C copies it): the Invite button may
  // have turned disabled under the focus meanwhile.
  useEffect(() => {
    if (!fresh) return;
    linkRef.current?.focus();
    linkRef.current?.select();
  }, [fresh]);

  const copy = async (): Promise<void> => {
    if (!fresh) return;
    try {
      await navigator.clipboard.writeText(fresh.shownLink);
      setCopied('Link copied.');
    } catch {
      // Plain http (not a secure context) has no clipboard API: the text is selected to copy by hand.
      linkRef.current?.focus();
      linkRef.current?.select();
      setCopied('Selected: press Ctrl+C (⌘C) to copy.');
    }
  };
  const revoke = async (who: string): Promise<void> => {
    if (!window.confirm(`Revoke ${who}'s access? Their link stops working at once; their labels and role stay.`)) return;
    setError(null);
    try {
      await client.invoke('annotator.revoke', { name: who });
      if (fresh?.name === who) setFresh(null);
      // The Revoke button goes with the link: the focus stays in the row, on its Invite (was New link).
      document.querySelector<HTMLButtonElement>(`[data-testid="access-reinvite-${CSS.escape(who)}"]`)?.focus();
      load();
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  // A new link ends the person's current one at once, as Revoke does: asked first, as Revoke is.
  const reinvite = async (m: { name: string; role: string; invited: string | null }): Promise<void> => {
    if (m.invited && !window.confirm(`Give ${m.name} a new link? Their current link stops working at once (open pages too); send them the new one.`)) return;
    await invite(m.name, (PERSON_ROLES as readonly string[]).includes(m.role) ? (m.role as PersonRole) : 'annotator');
  };
  const changeRole = async (who: string, r: PersonRole): Promise<boolean> => {
    setError(null);
    setRoleNote(null);
    try {
      const done = await client.invoke('annotator.setRole', { name: who, role: r });
      setRoleNote(done.notes?.length ? done.notes.join(' ') : null);
      load();
      return true;
    } catch (e) {
      setError(errorMessage(e));
      return false;
    }
  };

  return (
    <section className="card" data-testid="access-panel" aria-labelledby="access-title">
      <h2 id="access-title">Team access</h2>
      <p className="hint">
        Each person signs in with their own link. Annotators see only the pools assigned to them (and open pools without imported labels); judges see
        everyone’s labels and settle disagreements; owners do everything. A link is shown once: copy it now, or invite again for a new one.
        {info?.transport === 'electron' && ' In the desktop app, serve the workspace (qpairs serve W --host 0.0.0.0) and replace HOST with its address.'}
      </p>
      <form
        className="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          const who = name.trim();
          if (!who) return;
          // Inviting someone already on the team replaces their link and sets their role to the one in
          // this form (a judge demoted by the default "annotator"): their row does either, on purpose.
          const problem = inviteProblem(team, who, role);
          if (problem) {
            setFresh(null);
            setError(problem);
            return;
          }
          void invite(who, role);
        }}
      >
        <label className="inline">
          Name
          <input ref={nameRef} data-testid="access-name" value={name} onChange={(e) => setName(e.target.value)} size={14} autoComplete="off" />
        </label>
        <label className="inline">
          Role
          <ChoiceSelect testId="access-role" choices={PERSON_ROLES} value={role} onChange={setRole} />
        </label>
        <button type="submit" className="primary" data-testid="access-invite" disabled={busy || !name.trim()}>
          {busy ? 'Inviting…' : 'Invite'}
        </button>
      </form>
      {/* Under the form, where the owner typed (below a long team it was out of view). */}
      {error && (
        <p className="error small" role="alert" data-testid="access-error">
          {error}
        </p>
      )}
      {roleNote && (
        <p className="hint small" role="status" data-testid="access-role-note">
          {roleNote}
        </p>
      )}

      {fresh && (
        <div className="note-box" role="status" data-testid="access-fresh">
          <p className="small">
            <strong>{fresh.name}</strong> ({fresh.role}) — their link, shown this once{fresh.revokedEarlier ? '; their earlier link no longer works' : ''}:
          </p>
          <div className="row wrap">
            <input ref={linkRef} className="grow" readOnly value={fresh.shownLink} data-testid="access-link" aria-label={`sign-in link for ${fresh.name}`} onFocus={(e) => e.target.select()} />
            <button type="button" data-testid="access-copy" onClick={() => void copy()}>
              Copy link
            </button>
            <button
              type="button"
              data-testid="access-done"
              onClick={() => {
                setFresh(null);
                // Its button leaves the page with the link: back to the form, for the next person.
                nameRef.current?.focus();
              }}
            >
              Done
            </button>
          </div>
          {copied && <p className="small ok">{copied}</p>}
        </div>
      )}

      <table className="data compact" data-testid="access-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Role</th>
            <th scope="col">Access</th>
            <th scope="col">Last seen</th>
            <th scope="col">Labels</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {team.length === 0 && (
            <tr>
              <td colSpan={6} className="muted small">
                nobody yet: invite someone above
              </td>
            </tr>
          )}
          {team.map((m) => (
            <tr key={m.name} data-testid={`access-${m.name}`}>
              <td>{m.name}</td>
              <td>
                <RoleSelect name={m.name} role={m.role} testId={`access-role-${m.name}`} onSave={(r) => changeRole(m.name, r)} />
              </td>
              <td data-testid={`access-state-${m.name}`}>
                {m.serverToken && (
                  <span title="signs in with a token the server was started with (--tokens-file or --token): delete their tokens-file line to revoke it; Revoke here ends only their link">server token{m.invited || m.revoked ? '; ' : ''}</span>
                )}
                {m.invited ? `invited ${ago(m.invited)}` : m.revoked ? `revoked ${ago(m.revoked)}` : m.serverToken ? '' : 'no link'}
              </td>
              <td>{ago(m.lastSeen)}</td>
              <td className="num">{m.labelEvents}</td>
              <td className="row-actions">
                <button type="button" data-testid={`access-reinvite-${m.name}`} onClick={() => void reinvite(m)} disabled={busy}>
                  {m.invited ? 'New link' : 'Invite'}
                </button>
                {m.invited && (
                  <button type="button" data-testid={`access-revoke-${m.name}`} onClick={() => void revoke(m.name)}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
