import { useEffect, useRef, useState, type ReactNode } from 'react';
import { PERSON_ROLES } from '../../shared/roles';

export type PersonRole = (typeof PERSON_ROLES)[number];

export interface RoleSelectProps {
  /** Whose role it is (for the labels). */
  name: string;
  /** Their role as saved. */
  role: string;
  testId: string;
  disabled?: boolean;
  /** Saves the role chosen; resolves true when it was saved (false: the choice goes back to the saved role). */
  onSave(role: PersonRole): Promise<boolean>;
}

/**
 * The choice shown once the saved role changes (another panel saved it, or a refresh brought it): a choice
 * not yet saved is kept — it was reset before, so a role picked while the table still showed the old one
 * was dropped without a word and Save vanished — and with none under way the select follows the saved role.
 */
export function choiceAfterSavedRoleChange(savedBefore: string, savedNow: string, chosen: string): string {
  return chosen === savedBefore ? savedNow : chosen;
}

/**
 * A person's role, changed on purpose: choosing another role only marks it, and **Save** applies it
 * (Esc or Cancel goes back). A select that saved on every change gave a keyboard user, whose arrow
 * keys step through the options, each role in turn — two ↓ from annotator made someone an owner.
 */
export function RoleSelect({ name, role, testId, disabled = false, onSave }: RoleSelectProps): ReactNode {
  const [chosen, setChosen] = useState(role);
  const [saving, setSaving] = useState(false);
  const savedBefore = useRef(role);
  useEffect(() => {
    setChosen((c) => choiceAfterSavedRoleChange(savedBefore.current, role, c));
    savedBefore.current = role;
  }, [role]);
  const changed = chosen !== role;
  const save = async (): Promise<void> => {
    setSaving(true);
    try {
      if (!(await onSave(chosen as PersonRole))) setChosen(role);
    } finally {
      setSaving(false);
    }
  };
  return (
    <span className="row role-select">
      <select
        data-testid={testId}
        value={chosen}
        disabled={disabled || saving}
        aria-label={`role of ${name}`}
        onChange={(e) => setChosen(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && changed) {
            e.preventDefault();
            e.stopPropagation();
            setChosen(role);
          }
        }}
      >
        {PERSON_ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      {changed && (
        <>
          <button type="button" className="primary" data-testid={`${testId}-save`} disabled={saving} onClick={() => void save()} aria-label={`save ${name}’s role: ${chosen}`}>
            Save
          </button>
          <button type="button" data-testid={`${testId}-cancel`} disabled={saving} onClick={() => setChosen(role)} aria-label={`keep ${name}’s role: ${role}`}>
            Cancel
          </button>
        </>
      )}
    </span>
  );
}
